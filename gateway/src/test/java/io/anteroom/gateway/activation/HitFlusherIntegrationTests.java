package io.anteroom.gateway.activation;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisTrafficStore;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;

/**
 * Two gateways' hit counters on one real Redis, on a clock moved by hand. The room turns a queue on
 * above 10 requests a second over 2 seconds (20 in the window); each gateway sends an item's count
 * once it has 2 (a tenth of 20).
 */
class HitFlusherIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  static final Pattern SCRIPT_CALLS = Pattern.compile("cmdstat_eval(?:sha)?:calls=(\\d+)");

  final QueueKeys keys = new QueueKeys("wr");
  final RoomPolicy policy =
      PolicyParser.apply(
          "shop", RoomPolicy.DEFAULTS, Map.of("activate-above", "10", "activation-window", "2s"));
  final MutableClock clock = MutableClock.startingAt2026();
  RedisConnector connector;
  RedisClient client;
  RedisCommands<String, String> direct;
  RedisActiveQueues active;
  Gateway one;
  Gateway two;

  /** One gateway's counting: its own counter and mirrors, the shared Redis. */
  record Gateway(HitFlusher flusher, ActiveQueueMirror mirror) {
    void requests(QueueId queue, RoomPolicy policy, int n) {
      for (int i = 0; i < n; i++) {
        flusher.record(queue, policy);
      }
    }

    void flush() {
      flusher.flush().block();
    }
  }

  @BeforeEach
  void connect() {
    connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofMillis(500), Duration.ofSeconds(1), 1000));
    client = RedisClient.create(redis.uri());
    direct = client.connect().sync();
    active = new RedisActiveQueues(connector.commands(), keys);
    one = gateway();
    two = gateway();
  }

  @AfterEach
  void close() {
    client.shutdown();
    connector.close();
  }

  Gateway gateway() {
    SimpleMeterRegistry meters = new SimpleMeterRegistry();
    RoomPolicies policies =
        new RoomPolicies(
            Map.of("shop", policy), new RedisSettingsStore(connector.commands(), keys), clock);
    ActiveQueueMirror mirror =
        new ActiveQueueMirror(
            active, Mono.never(), keys.activeChanged(), Duration.ofMinutes(1), clock, meters);
    AutoActivator activator =
        new AutoActivator(
            active,
            mirror,
            new io.anteroom.queue.RedisRoomStore(connector.commands(), keys, clock),
            100,
            Set.of("shop"),
            meters,
            clock);
    HitFlusher flusher =
        new HitFlusher(
            new HitCounter(10_000),
            new RedisTrafficStore(connector.commands(), keys, clock),
            activator,
            mirror,
            new RoomPolicyMirror(policies, clock),
            meters,
            clock);
    return new Gateway(flusher, mirror);
  }

  long scriptCalls() {
    Matcher calls = SCRIPT_CALLS.matcher(direct.info("commandstats"));
    long total = 0;
    while (calls.find()) {
      total += Long.parseLong(calls.group(1));
    }
    return total;
  }

  @Test
  void twoGatewaysEachBelowTheThresholdAreSummedExactlyAndTogetherTurnTheQueueOn() {
    QueueId item = QueueId.of("shop", "7");
    one.requests(item, policy, 9);
    two.requests(item, policy, 10);
    one.flush();
    two.flush();
    assertThat(direct.hget(keys.hits(item), second())).as("both counts, summed").isEqualTo("19");
    assertThat(active.list().block()).doesNotContainKey(item);

    clock.advance(Duration.ofSeconds(1));
    one.requests(item, policy, 1);
    one.requests(item, policy, 1);
    one.flush();

    assertThat(active.list().block()).containsEntry(item, Activation.AUTO);
  }

  @Test
  void countsThatLeftTheWindowNoLongerAddUp() {
    QueueId item = QueueId.of("shop", "8");
    one.requests(item, policy, 10);
    one.flush();
    clock.advance(Duration.ofSeconds(2));
    two.requests(item, policy, 10);
    two.flush();

    assertThat(active.list().block()).doesNotContainKey(item);
  }

  @Test
  void aThousandItemsOfOneFlushCostOneRoundTrip() {
    one.requests(QueueId.of("shop", "first"), policy, 3);
    one.flush();
    for (int i = 0; i < 1_000; i++) {
      one.requests(QueueId.of("shop", "item-" + i), policy, 3);
    }
    long before = scriptCalls();

    one.flush();

    assertThat(scriptCalls() - before).isEqualTo(1);
    assertThat(direct.hget(keys.hits(QueueId.of("shop", "item-0")), second())).isEqualTo("3");
    assertThat(direct.hget(keys.hits(QueueId.of("shop", "item-999")), second())).isEqualTo("3");
  }

  private String second() {
    return Long.toString(clock.millis() / 1000);
  }
}
