package io.anteroom.gateway;

import io.anteroom.gateway.token.VisitorIds;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.DeferredRedisConnector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Queue state arranged and read directly in Redis, for gateway tests. */
public final class QueueFixtures {

  private QueueFixtures() {}

  /**
   * Puts {@code count} new visitors in the line of {@code queue} (a room's queue as configured),
   * none admitted: under a paused policy nobody goes straight in.
   *
   * @return the visitors, in line order
   */
  public static List<String> lineUp(
      QueueStore store, RoomPolicies policies, QueueId queue, int count) {
    RoomPolicy paused =
        PolicyParser.apply("test", policies.configured(queue.room()), Map.of("mode", "paused"));
    List<String> visitors = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String visitor = VisitorIds.newVisitorId();
      store.enqueue(queue, visitor, paused).block();
      visitors.add(visitor);
    }
    return visitors;
  }

  /** The room's live-settings hash as Redis holds it. */
  public static Map<String, String> settingsHash(
      DeferredRedisConnector connector, QueueKeys keys, String room) {
    return connector.commands().hgetall(keys.settings(room)).toCompletableFuture().join();
  }
}
