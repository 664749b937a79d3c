package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import io.anteroom.testing.AttackFigures;
import io.anteroom.testing.AttackTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;

/**
 * Attack 2 at full size ({@link GoneVisitorsIntegrationTests} is its scaled sibling): cookieless
 * one-shot arrivals who never poll again fill the line ahead of visitors who poll. 500 a second,
 * bursts of one second, batches of 100, abandon-after 2 minutes, no cap on sessions that matters
 * (max-active 1,000,000), 250 ms ticks on a clock the test moves; Redis time from {@code INFO
 * commandstats}.
 */
@AttackTest
class GoneVisitorsAttackIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  static final double RATE = 500;
  static final Duration TICK = Duration.ofMillis(250);

  static final RoomPolicy POLICY =
      PolicyParser.apply(
          "test",
          RoomPolicy.DEFAULTS,
          Map.of(
              "admit-per-second", "500",
              "admit-burst", "1s",
              "admit-batch", "100",
              "max-active", "1000000",
              "abandon-after", "120s"));

  static final RoomPolicy JOINING = PolicyParser.apply("test", POLICY, Map.of("mode", "paused"));

  static final AttackFigures FIGURES = AttackFigures.of("2-gone", "2. One-shot arrivals");

  final QueueKeys keys = new QueueKeys("wr");
  final QueueId drop = QueueId.of("drop", "sneaker");
  final MutableClock clock = MutableClock.startingAt2026();
  LinesOnRedis lines;
  RedisCommands<String, String> sync;
  WorkerFixture worker;
  QueueStore store;

  @BeforeEach
  void start() {
    lines = new LinesOnRedis(redis.uri(), keys, clock);
    sync = lines.sync;
    store = lines.store;
    lines.on(List.of(drop));
    worker = lines.worker("drop", POLICY, "250ms");
  }

  @AfterEach
  void tearDown() {
    lines.close();
  }

  void join(List<String> visitors, RoomPolicy policy) {
    Flux.fromIterable(visitors).flatMap(v -> store.join(drop, v, policy), 256).blockLast();
  }

  void poll(List<String> visitors) {
    Flux.fromIterable(visitors).flatMap(v -> store.status(drop, v, POLICY), 256).blockLast();
  }

  /** Those of {@code visitors} the worker has let in (running), in chunks of 1,000. */
  List<String> admittedAmong(List<String> visitors) {
    List<String> admitted = new ArrayList<>();
    for (int from = 0; from < visitors.size(); from += 1000) {
      List<String> chunk = visitors.subList(from, Math.min(visitors.size(), from + 1000));
      List<Double> scores = sync.zmscore(keys.running(drop), chunk.toArray(String[]::new));
      for (int i = 0; i < chunk.size(); i++) {
        if (scores.get(i) != null) {
          admitted.add(chunk.get(i));
        }
      }
    }
    return admitted;
  }

  long evalshaMicros() {
    return stat("usec");
  }

  long evalshaCalls() {
    return stat("calls");
  }

  long stat(String field) {
    String line =
        sync.info("commandstats")
            .lines()
            .filter(l -> l.startsWith("cmdstat_evalsha:"))
            .findFirst()
            .orElse("");
    for (String part : line.substring(line.indexOf(':') + 1).split(",")) {
      if (part.startsWith(field + "=")) {
        return Long.parseLong(part.substring(field.length() + 1));
      }
    }
    return 0;
  }

  long admittedSoFar() {
    return store.counts(drop).block().admitted();
  }

  static List<String> named(String prefix, int from, int to) {
    return IntStream.range(from, to).mapToObj(i -> prefix + i).toList();
  }

  static String share(double share) {
    return String.format(Locale.ROOT, "%.1f %%", 100 * share);
  }

  @Test
  void aHundredThousandWhoLeftAheadOfAHundredWhoPoll() {
    join(named("gone-", 0, 100_000), JOINING);
    clock.advance(Duration.ofSeconds(1));
    List<String> polling = named("here-", 0, 100);
    join(polling, JOINING);
    clock.advance(Duration.ofSeconds(149));
    poll(polling);
    sync.configResetstat();

    int ticks = 0;
    int firstTick = 0;
    List<String> waiting = new ArrayList<>(polling);
    while (!waiting.isEmpty() && ticks < 2_000) {
      clock.advance(TICK);
      worker.loop.runOnce().block();
      ticks++;
      waiting.removeAll(new HashSet<>(admittedAmong(waiting)));
      if (firstTick == 0 && waiting.size() < polling.size()) {
        firstTick = ticks;
      }
    }
    double seconds = ticks * TICK.toMillis() / 1000.0;
    double share = polling.size() / (RATE * seconds);
    long calls = evalshaCalls();
    long micros = evalshaMicros();

    assertThat(waiting).as("polling visitors never admitted").isEmpty();
    assertThat(admittedSoFar()).as("nobody who left is admitted").isEqualTo(polling.size());
    FIGURES.record(
        "100 polling behind 100,000 gone: ticks of 250 ms from the first tick to the last of the"
            + " 100 admitted (first of them in tick "
            + firstTick
            + ")",
        ticks + " ticks (" + seconds + " s)",
        "1 tick (all 100 fit the rate's first burst)",
        ticks == 1);
    FIGURES.record(
        "the same as a share of the configured rate: 100 ÷ (500/s × " + seconds + " s)",
        share(share),
        "100 %",
        share >= 1.0);
    FIGURES.record(
        "Redis time of those ticks' scripts (INFO commandstats, EVALSHA)",
        String.format(
            Locale.ROOT,
            "%.1f ms a tick, %d calls (%.2f ms a call)",
            micros / 1000.0 / ticks,
            calls,
            micros / 1000.0 / calls));
  }

  @Test
  void nineInTenArrivalsLeaveDuringAFlood() {
    int arrivals = 110_000;
    int perTick = 1_250; // 5,000 a second: ten times the rate
    long pollEvery = Duration.ofSeconds(30).toMillis();
    List<String> waiting = new ArrayList<>();
    Map<String, Long> nextPoll = new HashMap<>();
    List<Long> pollingAdmittedAt = new ArrayList<>();
    long start = clock.millis();
    int joined = 0;
    int ticks = 0;
    while ((joined < arrivals || !waiting.isEmpty()) && ticks < 4_000) {
      clock.advance(TICK);
      long now = clock.millis();
      List<String> newcomers = new ArrayList<>();
      for (int i = 0; i < perTick && joined < arrivals; i++, joined++) {
        String visitor = (joined % 10 == 9 ? "here-" : "gone-") + joined;
        newcomers.add(visitor);
        if (visitor.startsWith("here-")) {
          waiting.add(visitor);
          nextPoll.put(visitor, now + pollEvery);
        }
      }
      join(newcomers, POLICY);
      List<String> due = waiting.stream().filter(v -> nextPoll.get(v) <= now).toList();
      due.forEach(v -> nextPoll.put(v, now + pollEvery));
      poll(due);
      worker.loop.runOnce().block();
      ticks++;
      List<String> admitted = admittedAmong(waiting);
      waiting.removeAll(new HashSet<>(admitted));
      admitted.forEach(v -> pollingAdmittedAt.add(clock.millis() - start));
    }
    long polling = arrivals / 10;
    long gone = arrivals - polling;
    long goneAdmitted = admittedSoFar() - polling;
    double lastSeconds = pollingAdmittedAt.get(pollingAdmittedAt.size() - 1) / 1000.0;
    long withinAbandon = pollingAdmittedAt.stream().filter(t -> t <= 120_000).count();
    String after =
        lastSeconds <= 120
            ? "none left"
            : String.format(
                Locale.ROOT,
                "%,d polling admitted = %s of the rate",
                polling - withinAbandon,
                share((polling - withinAbandon) / (RATE * (lastSeconds - 120))));

    assertThat(waiting).as("polling visitors never admitted").isEmpty();
    assertThat(pollingAdmittedAt).hasSize((int) polling);
    FIGURES.record(
        String.format(
            Locale.ROOT,
            "flood: %,d arrivals at 5,000/s (22 s), 9 of 10 gone (%,d) and 1 of 10 polling every"
                + " 30 s (%,d); polling visitors admitted a second, from the first tick to the"
                + " last of them admitted (%.2f s)",
            arrivals,
            gone,
            polling,
            lastSeconds),
        String.format(
            Locale.ROOT,
            "%.0f/s = %s of the rate",
            polling / lastSeconds,
            share(polling / (RATE * lastSeconds))));
    FIGURES.record(
        "the same flood, in the first 120 s (abandon-after: nobody can be known gone yet)",
        String.format(
            Locale.ROOT,
            "%,d polling admitted = %s of the rate",
            withinAbandon,
            share(withinAbandon / (RATE * 120))));
    FIGURES.record(
        String.format(
            Locale.ROOT,
            "the same flood, from 120 s to the last polling admitted (%.2f s)",
            lastSeconds),
        after);
    long[] windows = new long[(int) Math.ceil(lastSeconds / 10)];
    pollingAdmittedAt.forEach(t -> windows[(int) Math.min(windows.length - 1, (t - 1) / 10_000)]++);
    FIGURES.record(
        "the same flood: polling visitors admitted in each 10 s of test clock (the rate's 10 s:"
            + " 5,000)",
        java.util.Arrays.stream(windows)
            .mapToObj(String::valueOf)
            .collect(java.util.stream.Collectors.joining(", ")));
    FIGURES.record(
        "the same flood: admissions that went to visitors who had left (sessions nobody uses)",
        String.format(Locale.ROOT, "%,d of %,d gone", goneAdmitted, gone));
  }
}
