package io.anteroom.gateway.filter;

import io.anteroom.gateway.GatewayProperties;
import io.anteroom.gateway.client.ClientAddress;
import io.anteroom.gateway.room.ItemIds;
import io.anteroom.queue.config.AnteroomProperties;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A room's own rules, read from its settings at start-up: what its item ids look like, and which
 * requests bypass it.
 */
record RoomRules(ItemIds ids, Bypass bypass) {

  /** Every configured room's rules, by room; a bad value fails naming its property. */
  static Map<String, RoomRules> of(
      AnteroomProperties anteroom, GatewayProperties gateway, ClientAddress clients) {
    Map<String, RoomRules> rules = new LinkedHashMap<>();
    anteroom
        .roomOptions()
        .forEach(
            (room, options) -> {
              ItemIds ids = ItemIds.parse(room, options);
              Bypass bypass =
                  BypassOptions.parse(
                      room, options, gateway.staticExtensions(), clients, ids.source());
              rules.put(room, new RoomRules(ids, bypass));
            });
    return Map.copyOf(rules);
  }
}
