package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.time.MutableClock;
import io.lettuce.core.RedisClient;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
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

  /**
   * Reads that find nothing changed cost the same however many queues are on: the entries come back
   * only when the hash's generation moved.
   */
  @Nested
  class Generations {

    final RedisActiveQueues reader = new RedisActiveQueues(fixture.connector().commands(), keys);
    final ActiveQueues writer = new RedisActiveQueues(fixture.connector().commands(), keys);

    List<Object> readScript(String generation) {
      return fixture
          .sync()
          .eval(
              io.anteroom.queue.script.QueueScripts.ACTIVE_READ.source(),
              io.lettuce.core.ScriptOutputType.MULTI,
              new String[] {keys.active()},
              "",
              generation,
              "",
              "0");
    }

    @Test
    void aReadSendingTheGenerationItFoundGetsNoEntriesWhateverTheQueuesOn() {
      writer.activate(QueueId.of("shop", "0"), Activation.AUTO).block();
      long first = Long.parseLong(fixture.sync().hget(keys.active(), QueueKeys.GENERATION));
      for (int i = 1; i < 1000; i++) {
        writer.activate(QueueId.of("shop", Integer.toString(i)), Activation.AUTO).block();
      }
      List<Object> whole = readScript("");
      String generation = (String) whole.get(2);

      List<Object> again = readScript(generation);

      assertThat(whole).hasSize(6 + 2 * 1000);
      assertThat(Long.parseLong(generation)).isGreaterThanOrEqualTo(first + 999);
      assertThat(again).hasSize(6).element(3).isEqualTo(0L);
    }

    @Test
    void aHashEmptiedAndBegunAgainNeverRepeatsAGenerationAReaderHolds() {
      writer.activate(queue, Activation.MANUAL).block();
      assertThat(reader.read().block().queues()).containsOnlyKeys(queue);
      QueueId other = QueueId.of("shop", "43");

      fixture.sync().flushall();
      writer.activate(other, Activation.MANUAL).block();

      assertThat(reader.read().block().queues()).containsOnlyKeys(other);
    }

    @Test
    void everyChangeMovesTheGenerationSoTheNextReadSeesIt() {
      assertThat(reader.read().block().queues()).isEmpty();

      writer.activate(queue, Activation.AUTO).block();
      assertThat(reader.read().block().queues()).containsEntry(queue, Activation.AUTO);

      writer.activate(queue, Activation.MANUAL).block();
      assertThat(reader.read().block().queues()).containsEntry(queue, Activation.MANUAL);

      writer.markFull("shop", true).block();
      assertThat(reader.read().block().fullRooms()).containsExactly("shop");

      writer.markFull("shop", false).block();
      assertThat(reader.read().block().fullRooms()).isEmpty();

      writer.deactivate(queue).block();
      assertThat(reader.read().block().queues()).isEmpty();
    }

    @Test
    void whatChangesNothingLeavesTheGenerationAlone() {
      writer.activate(queue, Activation.MANUAL).block();
      String before = fixture.sync().hget(keys.active(), QueueKeys.GENERATION);

      writer.activate(queue, Activation.AUTO).block();
      writer.activate(queue, Activation.MANUAL).block();
      writer.deactivate(queue, Activation.AUTO).block();
      writer.markFull("shop", false).block();

      assertThat(fixture.sync().hget(keys.active(), QueueKeys.GENERATION)).isEqualTo(before);
    }

    @Test
    void aChangeWrittenWithoutTheGenerationIsSeenByAWholeReadAndWithinTwentyReads() {
      reader.read().block();
      fixture.sync().hset(keys.active(), queue.toString(), "manual");

      int reads = 1;
      while (!reader.read().block().queues().containsKey(queue)) {
        reads++;
        assertThat(reads).isLessThanOrEqualTo(RedisActiveQueues.WHOLE_EVERY);
      }
      fixture.sync().hdel(keys.active(), queue.toString());

      assertThat(reads).isGreaterThan(1);
      assertThat(reader.readWhole().block().queues()).isEmpty();
    }
  }

  /** The store comes back empty: a restart without persistence, or an empty replica promoted. */
  @Nested
  class WhenTheStoreComesBackEmpty {

    final MutableClock clock = MutableClock.startingAt2026();
    final QueueId other = QueueId.roomWide("tickets");

    final RedisSettingsStore settings =
        new RedisSettingsStore(fixture.connector().commands(), keys);

    RedisActiveQueues instance() {
      return new RedisActiveQueues(
          fixture.connector().commands(),
          keys,
          clock,
          room -> Duration.ofSeconds(20),
          List.of(settings));
    }

    @Test
    void theLiveSettingsReadLastAreWrittenBackToo() {
      RedisActiveQueues worker = instance();
      worker.activate(queue, Activation.MANUAL).block();
      settings.put("shop", null, Map.of("admit-per-second", "12")).block();
      settings.put("shop", "42", Map.of("max-active", "5")).block();
      worker.read().block();
      settings.overrides("shop").block();

      fixture.restart();
      worker.read().block();

      assertThat(fixture.sync().hgetall(keys.settings("shop")))
          .containsExactlyInAnyOrderEntriesOf(
              Map.of("admit-per-second", "12", "42/max-active", "5"));
    }

    @Test
    void theQueuesThatWereOnAreWrittenBackWithTheirCausesAndTheirLinesHeld() {
      RedisActiveQueues gateway = instance();
      gateway.activate(queue, Activation.MANUAL).block();
      gateway.activate(other, Activation.AUTO).block();
      gateway.read().block();

      fixture.restart();

      assertThat(gateway.list().block())
          .containsExactlyInAnyOrderEntriesOf(
              Map.of(queue, Activation.MANUAL, other, Activation.AUTO));
      assertThat(fixture.sync().hgetall(keys.state(queue)))
          .containsEntry("since", Long.toString(clock.millis()))
          .containsEntry("hold-until", Long.toString(clock.millis() + 20_000));
    }

    @Test
    void anInstanceReadingAfterAnotherStartedTheStoreAgainStillWritesBack() {
      RedisActiveQueues worker = instance();
      worker.activate(queue, Activation.MANUAL).block();
      worker.read().block();

      fixture.restart();
      RedisActiveQueues started = instance();
      Map<QueueId, Activation> seenByNewcomer = started.list().block();

      assertThat(seenByNewcomer).isEmpty();
      assertThat(worker.list().block()).containsEntry(queue, Activation.MANUAL);
      assertThat(started.list().block()).containsEntry(queue, Activation.MANUAL);
    }

    @Test
    void aStoreEmptiedOnPurposeOnTheSameServerStartsAfresh() {
      RedisActiveQueues gateway = instance();
      gateway.activate(queue, Activation.MANUAL).block();
      gateway.read().block();

      fixture.sync().flushall();

      assertThat(gateway.list().block()).isEmpty();
      assertThat(fixture.sync().exists(keys.state(queue))).isZero();
    }

    @Test
    void aStoreThatKeptItsDataOnAnotherServerIsTakenAsItIs() {
      // A persistent restart or a synced replica: the store's incarnation and its time of the last
      // read come back with it (here without the queue, to show the store is taken as it is).
      RedisActiveQueues gateway = instance();
      gateway.activate(queue, Activation.MANUAL).block();
      gateway.read().block();
      Map<String, String> own = new java.util.HashMap<>(fixture.sync().hgetall(keys.active()));
      own.keySet().retainAll(List.of(QueueKeys.STORE_MARKER, ".seen"));

      fixture.restart();
      fixture.sync().hset(keys.active(), own);

      assertThat(gateway.list().block()).isEmpty();
    }

    @Test
    void writtenBackOnceSoAnOperatorCanTurnTheQueueOffAfterwards() {
      RedisActiveQueues gateway = instance();
      gateway.activate(queue, Activation.MANUAL).block();
      gateway.read().block();
      fixture.restart();
      gateway.read().block();

      gateway.deactivate(queue).block();

      assertThat(gateway.list().block()).isEmpty();
    }

    @Test
    void anInstanceThatHadReadNothingHasNothingToWriteBack() {
      RedisActiveQueues gateway = instance();
      gateway.activate(queue, Activation.MANUAL).block();

      fixture.restart();

      assertThat(gateway.list().block()).isEmpty();
    }
  }
}
