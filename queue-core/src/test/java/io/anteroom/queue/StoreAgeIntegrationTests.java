package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.redis.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The store knows its age (active_read.lua): a Redis brought back from an earlier snapshot is found
 * older than what the instances read, and the queues are written back as the latest of them read
 * them without undoing what changed since; a failback to the same process is no loss; FLUSHALL is
 * the same fresh start to every instance; and only a line a recovery began takes tickets from
 * before at the front.
 */
class StoreAgeIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();
  static RedisCommands<String, String> sync;

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId line = QueueId.of("shop", "1");
  final QueueId later = QueueId.of("shop", "2");

  /** A clock standing still at the real time: nobody goes in at once from an empty bucket. */
  final MutableClock clock = new MutableClock(Instant.now());

  final RoomPolicy policy = RedisClockIntegrationTests.POLICY;

  @BeforeEach
  void setUp() {
    sync = fixture.sync();
    sync.flushall();
  }

  @AfterEach
  void forgetTheSnapshot() throws IOException {
    Files.deleteIfExists(Path.of(sync.configGet("dir").get("dir"), "dump.rdb"));
  }

  RedisActiveQueues instance() {
    return new RedisActiveQueues(
        fixture.connector().commands(), keys, clock, room -> Duration.ofSeconds(20), List.of());
  }

  RedisQueueStore queues() {
    return new RedisQueueStore(fixture.connector().commands(), keys, clock);
  }

  void emptyBucket(QueueId queue) {
    sync.hset(keys.state(queue), Map.of("tokens", "0", "refill", Long.toString(clock.millis())));
  }

  /** Redis dies and comes back from the snapshot taken by the last SAVE. */
  void backFromTheSnapshot() {
    fixture.server().kill();
    fixture.restart();
  }

  /** Lets the store's time of the last read move past the snapshot's, then reads with each. */
  static void readAfterASecond(RedisActiveQueues... instances) throws InterruptedException {
    Thread.sleep(1100);
    for (RedisActiveQueues instance : instances) {
      instance.read().block();
    }
  }

  @Test
  void aStoreBackFromAnEarlierSnapshotGetsTheQueuesAsLastReadAndTakesBackWhomItLost()
      throws InterruptedException {
    RedisActiveQueues gateway = instance();
    gateway.activate(line, Activation.MANUAL).block();
    emptyBucket(line);
    RedisQueueStore queues = queues();
    queues.enqueue(line, "a", policy).block();
    queues.enqueue(line, "b", policy).block();
    gateway.read().block();
    sync.save();
    gateway.activate(later, Activation.MANUAL).block();
    Instant cJoined = clock.instant();
    queues.enqueue(line, "c", policy).block();
    readAfterASecond(gateway);

    backFromTheSnapshot();
    assertThat(sync.hkeys(keys.active()))
        .contains(line.toString())
        .doesNotContain(later.toString());
    assertThat(sync.zrange(keys.waiting(line), 0, -1)).containsExactly("a", "b");

    assertThat(gateway.read().block().queues()).containsOnlyKeys(line, later);
    queues.enqueue(line, "d", policy).block();
    EnqueueResult back = queues.enqueue(line, "c", cJoined, policy).block();

    assertThat(back.position()).as("c, lost with the snapshot's age, back at the front").isOne();
    assertThat(sync.zrange(keys.waiting(line), 0, -1)).containsExactly("c", "a", "b", "d");
    sync.hset(keys.state(line), Map.of("tokens", "10"));
    assertThat(queues.admit(line, policy).block().admitted())
        .as("the line it kept and whom it took back go on; the newcomer waits the hold")
        .isEqualTo(3);
    clock.advance(Duration.ofSeconds(21));
    assertThat(queues.admit(line, policy).block().admitted()).isOne();
  }

  @Test
  void aChangeMadeAfterTheWriteBackIsNeverUndoneByAnInstanceThatReadBefore()
      throws InterruptedException {
    RedisActiveQueues gateway = instance();
    RedisActiveQueues worker = instance();
    gateway.activate(line, Activation.MANUAL).block();
    gateway.read().block();
    sync.save();
    gateway.activate(later, Activation.MANUAL).block();
    readAfterASecond(gateway, worker);

    backFromTheSnapshot();
    assertThat(gateway.read().block().queues()).containsOnlyKeys(line, later);
    instance().deactivate(later).block();

    assertThat(worker.read().block().queues()).containsOnlyKeys(line);
    assertThat(gateway.read().block().queues()).containsOnlyKeys(line);
  }

  @Test
  void aChangeMadeBeforeAnyWriteBackIsNeverUndoneEither() throws InterruptedException {
    RedisActiveQueues gateway = instance();
    gateway.activate(line, Activation.MANUAL).block();
    gateway.read().block();
    sync.save();
    gateway.activate(later, Activation.MANUAL).block();
    readAfterASecond(gateway);

    backFromTheSnapshot();
    instance().deactivate(line).block();

    // The write-back is the whole hash as read, by generation: after a change it is not written,
    // so what the snapshot lost (later) stays lost, and the change stands.
    assertThat(gateway.read().block().queues()).isEmpty();
  }

  @Test
  void liveSettingsChangedInTheLostSecondsAreWrittenBackUnlessChangedAgainSince()
      throws InterruptedException {
    RedisSettingsStore gatewaySettings =
        new RedisSettingsStore(fixture.connector().commands(), keys);
    RedisSettingsStore workerSettings =
        new RedisSettingsStore(fixture.connector().commands(), keys);
    RedisActiveQueues gateway = remembering(gatewaySettings);
    RedisActiveQueues worker = remembering(workerSettings);
    gateway.activate(line, Activation.MANUAL).block();
    gatewaySettings.put("shop", null, Map.of("admit-per-second", "10")).block();
    gateway.read().block();
    sync.save();
    gatewaySettings.put("shop", null, Map.of("admit-per-second", "25")).block();
    gatewaySettings.put("shop", "1", Map.of("max-active", "5")).block();
    gatewaySettings.overrides("shop").block();
    workerSettings.overrides("shop").block();
    readAfterASecond(gateway, worker);

    backFromTheSnapshot();
    assertThat(sync.hget(keys.settings("shop"), "admit-per-second")).isEqualTo("10");
    gateway.read().block();

    assertThat(gatewaySettings.overrides("shop").block().room())
        .isEqualTo(Map.of("admit-per-second", "25"));
    assertThat(gatewaySettings.overrides("shop").block().queues().get("1"))
        .isEqualTo(Map.of("max-active", "5"));
    new RedisSettingsStore(fixture.connector().commands(), keys)
        .put("shop", null, Map.of("admit-per-second", "30"))
        .block();
    worker.read().block();
    assertThat(sync.hget(keys.settings("shop"), "admit-per-second"))
        .as("an operator's change after the write-back stands")
        .isEqualTo("30");
  }

  RedisActiveQueues remembering(RedisSettingsStore settings) {
    return new RedisActiveQueues(
        fixture.connector().commands(),
        keys,
        clock,
        room -> Duration.ofSeconds(20),
        List.of(settings));
  }

  @Test
  void anOlderStoreIsFoundAlsoWhenAnInstanceThatReadBeforeTheLossReadsItFirst()
      throws InterruptedException {
    RedisActiveQueues early = instance();
    RedisActiveQueues late = instance();
    late.activate(line, Activation.MANUAL).block();
    early.read().block();
    late.read().block();
    sync.save();
    late.activate(later, Activation.MANUAL).block();
    readAfterASecond(late);

    backFromTheSnapshot();
    // early's last read is the snapshot's own: it moves the store's time of the last read first.
    readAfterASecond(early);

    assertThat(late.read().block().queues()).containsOnlyKeys(line, later);
  }

  @Test
  void theLatestReadBeforeTheLossWinsOverAnEarlierOne() throws InterruptedException {
    RedisActiveQueues early = instance();
    RedisActiveQueues late = instance();
    early.activate(line, Activation.MANUAL).block();
    readAfterASecond(early, late);
    sync.save();
    readAfterASecond(early, late);
    late.activate(later, Activation.MANUAL).block();
    late.read().block();

    backFromTheSnapshot();
    late.read().block();
    early.read().block();

    assertThat(sync.hkeys(keys.active())).contains(line.toString(), later.toString());
  }

  @Test
  void aFailoverAndAFailbackToTheSameProcessAreNoLoss() throws Exception {
    try (RedisServer a = RedisServer.start();
        RedisServer b = RedisServer.start()) {
      RedisCommands<String, String> onA = connect(a);
      RedisCommands<String, String> onB = connect(b);
      onA.hset(keys.active(), line.toString(), "manual");
      List<Object> first = read(onA, "", "", "0");
      replicate(b, a, onA);

      b.command("REPLICAOF", "NO", "ONE");
      replicate(a, b, onB);
      List<Object> onPromoted = read(onB, first);
      a.command("REPLICAOF", "NO", "ONE");
      replicate(b, a, onA);
      List<Object> onFailback = read(onA, onPromoted);

      assertThat(onPromoted.get(1)).as("verdict after the failover").isEqualTo(0L);
      assertThat(onFailback.get(1)).as("verdict after the failback").isEqualTo(0L);
      assertThat(onFailback.subList(6, 8)).containsExactly(line.toString(), "manual");
    }
  }

  @Test
  void flushallIsTheSameFreshStartToEveryInstanceWhicheverServerItReadLast() {
    RedisActiveQueues gateway = instance();
    gateway.activate(line, Activation.MANUAL).block();
    gateway.read().block();
    List<Object> before = read(sync, "", "", "0");

    sync.flushall();
    List<Object> judged = read(sync, (String) before.get(0), "", (String) before.get(4), "0");
    List<Object> fromElsewhere = read(sync, (String) before.get(0), "", "another-server", "0");

    assertThat(judged.get(1)).isEqualTo(3L);
    assertThat(fromElsewhere.get(1)).isEqualTo(3L);
    assertThat(gateway.list().block()).isEmpty();
    assertThat(sync.exists(keys.state(line))).isZero();
  }

  @Test
  void anInstanceThatLearnsOfALossLongAfterTakesTheStoreAsItIs() {
    RedisActiveQueues late = instance();
    late.activate(line, Activation.MANUAL).block();
    late.read().block();

    fixture.restart();
    RedisActiveQueues first = instance();
    first.read().block();
    long threeMinutesAgo = (System.currentTimeMillis() - Duration.ofMinutes(3).toMillis()) * 1000;
    sync.hset(keys.active(), QueueKeys.STORE_MARKER, Long.toString(threeMinutesAgo));

    assertThat(late.read().block().queues()).isEmpty();
    assertThat(sync.exists(keys.state(line))).isZero();
  }

  @Test
  void aStoreBegunAgainByAnOlderVersionIsStillFoundEmpty() {
    RedisActiveQueues gateway = instance();
    gateway.activate(line, Activation.MANUAL).block();
    gateway.read().block();

    fixture.restart();
    // An instance of the version before marked the new store with its server's run id.
    sync.hset(keys.active(), QueueKeys.STORE_MARKER, "0207c93cfacfb09c6327d1877602acd0633f7443");

    assertThat(gateway.read().block().queues()).containsOnlyKeys(line);
  }

  @Test
  void aLineBegunAgainByAClearSendsTicketsFromBeforeToTheBack() {
    RedisQueueStore queues = queues();
    emptyBucket(line);
    Instant joined = clock.instant();
    queues.enqueue(line, "first", policy).block();
    clock.advance(Duration.ofSeconds(5));
    queues.clear(line).block();
    emptyBucket(line);
    queues.enqueue(line, "newcomer", policy).block();

    EnqueueResult back = queues.enqueue(line, "first", joined, policy).block();

    assertThat(back.position()).isEqualTo(2);
    assertThat(sync.zrange(keys.waiting(line), 0, -1)).containsExactly("newcomer", "first");
  }

  List<Object> read(RedisCommands<String, String> on, List<Object> last) {
    return read(
        on, (String) last.get(0), "", (String) last.get(4), Long.toString((Long) last.get(5)));
  }

  List<Object> read(RedisCommands<String, String> on, String... args) {
    return on.eval(
        QueueScripts.ACTIVE_READ.source(),
        ScriptOutputType.MULTI,
        new String[] {keys.active()},
        args.length == 3 ? new String[] {args[0], args[1], "", args[2]} : args);
  }

  static RedisCommands<String, String> connect(RedisServer server) {
    return RedisClient.create(server.uri()).connect().sync();
  }

  /** Makes {@code replica} a replica of {@code primary} and waits until it holds everything. */
  static void replicate(
      RedisServer replica, RedisServer primary, RedisCommands<String, String> on) {
    replica.command("REPLICAOF", primary.host(), Integer.toString(primary.port()));
    long acked = 0;
    for (int i = 0; i < 100 && acked < 1; i++) {
      acked = on.waitForReplication(1, 100);
    }
    assertThat(acked).as("replicas in sync").isOne();
  }
}
