package io.anteroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.VisitorIds;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.DeferredRedisConnector;
import java.time.Duration;
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
    Map<String, String> fields =
        new java.util.HashMap<>(
            connector.commands().hgetall(keys.settings(room)).toCompletableFuture().join());
    fields.keySet().removeIf(QueueKeys::isStoreField);
    return fields;
  }

  /**
   * {@code count} visitors of the shop holding a five-minute pass for product 1, each checked to
   * get the product page through the gateway on {@code port}.
   */
  public static List<Visitor> passHolders(int port, TokenCodec tokens, int count) {
    List<Visitor> holders = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      Visitor holder = new Visitor(port);
      holder.setCookie(
          "anteroom_pass_shop",
          tokens.issuePass(VisitorIds.newVisitorId(), "shop", List.of("1"), Duration.ofMinutes(5)));
      assertThat(holder.json("/products/1").body()).contains("Product page");
      holders.add(holder);
    }
    return holders;
  }
}
