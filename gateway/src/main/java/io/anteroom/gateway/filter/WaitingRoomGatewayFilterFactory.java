package io.anteroom.gateway.filter;

import io.anteroom.gateway.GatewayProperties;
import io.anteroom.gateway.RedisGuard;
import io.anteroom.gateway.activation.HitFlusher;
import io.anteroom.gateway.activation.QueueGate;
import io.anteroom.gateway.client.ClientAddress;
import io.anteroom.gateway.identity.Identities;
import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.gateway.pass.PassRegistrar;
import io.anteroom.gateway.pass.Passes;
import io.anteroom.gateway.pass.SessionChecks;
import io.anteroom.gateway.pass.Tickets;
import io.anteroom.gateway.proof.Proofs;
import io.anteroom.gateway.room.ItemIds;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.status.LimitResponses;
import io.anteroom.gateway.status.WaitingResponses;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.queue.PlaceLimits;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.config.AnteroomProperties;
import io.anteroom.queue.log.ThrottledWarnings;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;

/**
 * {@code filters: [ WaitingRoom=shop ]} on a route puts the room {@code shop} of {@code
 * anteroom.rooms} in front of it. A route naming a room that is not configured fails at start-up.
 */
public class WaitingRoomGatewayFilterFactory
    extends AbstractGatewayFilterFactory<WaitingRoomGatewayFilterFactory.Config> {

  private final WaitingRoomContext context;

  public WaitingRoomGatewayFilterFactory(
      AnteroomProperties anteroom,
      GatewayProperties gateway,
      RoomPolicyMirror policies,
      QueueGate gate,
      HitFlusher hits,
      TokenCodec tokens,
      QueueStore store,
      RedisGuard redis,
      PassRegistrar registrar,
      WaitingResponses responses,
      Decisions decisions,
      Line line,
      LineEvents events,
      ClientAddress clients,
      Clock clock,
      Identities identities,
      PlaceLimits placeLimits,
      LimitResponses limits,
      Passes passes,
      SessionChecks checks,
      Tickets tickets) {
    super(Config.class);
    ThrottledWarnings warnings =
        new ThrottledWarnings(
            LoggerFactory.getLogger(WaitingRoomFilter.class), clock, Duration.ofSeconds(10));
    AnteroomCookies cookies = new AnteroomCookies(gateway.cookieSecure());
    Forwarder forwarder =
        new Forwarder(
            new RequestScrubber(gateway.forwardPassHeader()),
            cookies,
            passes,
            checks,
            store,
            redis,
            registrar,
            events,
            warnings);
    Map<String, ItemIds> itemIds = itemIds(anteroom);
    this.context =
        new WaitingRoomContext(
            itemIds,
            policies,
            gate,
            hits,
            new VisitorTokens(cookies, tokens, tickets, decisions),
            cookies,
            new Proofs(tokens, cookies),
            line,
            forwarder,
            bypasses(anteroom, gateway, clients, itemIds),
            responses,
            decisions,
            warnings,
            identities,
            new PlaceGuard(placeLimits, redis, clients, warnings),
            limits,
            passes,
            checks,
            clock);
  }

  private static Map<String, Bypass> bypasses(
      AnteroomProperties anteroom,
      GatewayProperties gateway,
      ClientAddress clients,
      Map<String, ItemIds> itemIds) {
    Map<String, Bypass> bypasses = new LinkedHashMap<>();
    anteroom
        .roomOptions()
        .forEach(
            (room, options) ->
                bypasses.put(
                    room,
                    BypassOptions.parse(
                        room,
                        options,
                        gateway.staticExtensions(),
                        clients,
                        itemIds.get(room).source())));
    return Map.copyOf(bypasses);
  }

  private static Map<String, ItemIds> itemIds(AnteroomProperties anteroom) {
    Map<String, ItemIds> itemIds = new LinkedHashMap<>();
    anteroom
        .roomOptions()
        .forEach((room, options) -> itemIds.put(room, ItemIds.parse(room, options)));
    return Map.copyOf(itemIds);
  }

  @Override
  public List<String> shortcutFieldOrder() {
    return List.of("room");
  }

  @Override
  public GatewayFilter apply(Config config) {
    String room = config.getRoom();
    if (room == null || context.itemIds(room) == null) {
      throw new IllegalArgumentException(
          "WaitingRoom=" + room + ": no such room in anteroom.rooms " + context.itemIds().keySet());
    }
    return new WaitingRoomFilter(room, context);
  }

  /** The filter's argument: the room. */
  public static class Config {
    private String room;

    public String getRoom() {
      return room;
    }

    public void setRoom(String room) {
      this.room = room;
    }
  }
}
