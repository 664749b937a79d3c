package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RedisActiveQueuesIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId queue = QueueId.of("shop", "42");
  ActiveQueues active;

  @BeforeEach
  void setUp() {
    active = new RedisActiveQueues(fixture.connector().commands(), keys);
  }

  @Test
  void activateListsTheQueueWithItsCause() {
    assertThat(active.activate(queue, Activation.MANUAL).block()).isTrue();
    assertThat(active.activate(QueueId.roomWide("tickets"), Activation.AUTO).block()).isTrue();

    assertThat(active.list().block())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(queue, Activation.MANUAL, QueueId.roomWide("tickets"), Activation.AUTO));
  }

  @Test
  void automaticActivationNeverOverridesAManualOne() {
    active.activate(queue, Activation.MANUAL).block();

    assertThat(active.activate(queue, Activation.AUTO).block()).isFalse();
    assertThat(active.deactivate(queue, Activation.AUTO).block()).isFalse();
    assertThat(active.list().block()).containsEntry(queue, Activation.MANUAL);
  }

  @Test
  void manualActivationTakesOverAnAutomaticOne() {
    active.activate(queue, Activation.AUTO).block();
    active.activate(queue, Activation.MANUAL).block();

    assertThat(active.deactivate(queue, Activation.AUTO).block()).isFalse();
    assertThat(active.deactivate(queue).block()).isTrue();
    assertThat(active.deactivate(queue).block()).isFalse();
    assertThat(active.list().block()).isEmpty();
  }

  @Test
  void entriesThatAreNotQueueIdsAreSkipped() {
    fixture.sync().hset(keys.active(), "not a queue", "manual");
    active.activate(queue, Activation.MANUAL).block();

    assertThat(active.list().block()).containsOnlyKeys(queue);
  }

  @Test
  void everyChangeIsAnnouncedAndNonChangesAreNot() {
    RedisClient client = RedisClient.create(fixture.uri());
    List<String> messages = new CopyOnWriteArrayList<>();
    try (StatefulRedisPubSubConnection<String, String> sub = client.connectPubSub()) {
      sub.addListener(
          new io.lettuce.core.pubsub.RedisPubSubAdapter<>() {
            @Override
            public void message(String channel, String message) {
              messages.add(message);
            }
          });
      sub.sync().subscribe(keys.activeChanged());

      active.activate(queue, Activation.MANUAL).block();
      active.activate(queue, Activation.AUTO).block();
      active.deactivate(queue).block();
      active.deactivate(queue).block();

      Awaitility.await()
          .atMost(Duration.ofSeconds(5))
          .untilAsserted(() -> assertThat(messages).containsExactly("shop:42", "shop:42"));
    } finally {
      client.shutdown();
    }
  }
}
