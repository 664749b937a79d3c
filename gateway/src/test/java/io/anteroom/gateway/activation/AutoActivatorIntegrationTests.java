package io.anteroom.gateway.activation;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.RedisQueueStore;
import io.anteroom.queue.RedisRoomStore;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;

/**
 * One gateway's automatic activations in a room whose three slots are taken by lines of one visitor
 * each (made-up item ids), on a real Redis and a clock moved by hand: a longer line takes the slot
 * of the shortest, but lines only a little longer cannot look the room's queues up, and turn them
 * off, more than once a second.
 */
class AutoActivatorIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  static final RoomPolicy PAUSED =
      PolicyParser.apply("shop", RoomPolicy.DEFAULTS, Map.of("mode", "paused"));

  final QueueKeys keys = new QueueKeys("wr");
  final MutableClock clock = MutableClock.startingAt2026();
  final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  RedisConnector connector;
  RedisActiveQueues active;
  QueueStore store;
  ActiveQueueMirror mirror;
  AutoActivator activator;

  @BeforeEach
  void slotsTakenByLinesOfOne() {
    connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofMillis(500), Duration.ofSeconds(1), 1000));
    active = new RedisActiveQueues(connector.commands(), keys);
    store = new RedisQueueStore(connector.commands(), keys, clock);
    mirror =
        new ActiveQueueMirror(
            active, Mono.never(), keys.activeChanged(), Duration.ofMinutes(1), clock, meters);
    activator =
        new AutoActivator(
            active,
            mirror,
            new RedisRoomStore(connector.commands(), keys, clock),
            3,
            Set.of("shop"),
            meters,
            clock);
    for (int i = 1; i <= 3; i++) {
      assertThat(activator.activate(line("made-up-" + i, 1), 1).block()).isTrue();
    }
  }

  @AfterEach
  void close() {
    connector.close();
  }

  /** The queue of {@code item}, with {@code people} waiting in its line. */
  QueueId line(String item, int people) {
    QueueId queue = QueueId.of("shop", item);
    for (int i = 0; i < people; i++) {
      store.join(queue, item + "-v" + i, PAUSED).block();
    }
    return queue;
  }

  double evicted() {
    return meters.counter("anteroom.gateway.activations.evicted", "room", "shop").count();
  }

  @Test
  void aLineOfTwoTakesTheSlotOfALineOfOne() {
    QueueId two = line("two", 2);

    assertThat(activator.activate(two, 2).block()).isTrue();

    assertThat(active.list().block()).hasSize(3).containsEntry(two, Activation.AUTO);
    assertThat(evicted()).isOne();
  }

  @Test
  void linesALittleLongerThanTheShortestLookOnceASecond() {
    assertThat(activator.activate(line("first", 2), 2).block()).isTrue();
    QueueId second = line("second", 2);
    QueueId third = line("third", 2);

    clock.advance(Duration.ofMillis(500));
    boolean secondOn = activator.activate(second, 2).block();
    boolean thirdOn = activator.activate(third, 2).block();
    clock.advance(Duration.ofMillis(600));
    boolean secondLater = activator.activate(second, 2).block();

    assertThat(secondOn).isFalse();
    assertThat(thirdOn).isFalse();
    assertThat(secondLater).isTrue();
    assertThat(evicted()).isEqualTo(2);
  }

  @Test
  void aLineMoreThanTwiceAsLongAsTheShortestLooksAgainWithinTheSecond() {
    assertThat(activator.activate(line("first", 2), 2).block()).isTrue();
    QueueId hot = line("hot", 3);

    boolean atOnce = activator.activate(hot, 3).block();
    clock.advance(AutoActivator.LONGER_LINE_EVERY);
    boolean aTenthLater = activator.activate(hot, 3).block();

    assertThat(atOnce).isFalse();
    assertThat(aTenthLater).isTrue();
    assertThat(active.list().block()).containsEntry(hot, Activation.AUTO);
  }
}
