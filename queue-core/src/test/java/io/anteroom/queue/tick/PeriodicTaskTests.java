package io.anteroom.queue.tick;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.anteroom.queue.time.MutableClock;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.scheduler.VirtualTimeScheduler;

/** The runner on virtual time: ticks come when the test moves the scheduler, never by waiting. */
class PeriodicTaskTests {

  static final Duration EVERY = Duration.ofMillis(250);

  final VirtualTimeScheduler time = VirtualTimeScheduler.create();
  final MutableClock clock = MutableClock.startingAt2026();
  final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  final Logger logger = (Logger) LoggerFactory.getLogger(PeriodicTask.class);
  final ListAppender<ILoggingEvent> lines = new ListAppender<>();
  final AtomicInteger runs = new AtomicInteger();
  PeriodicTask task;

  @BeforeEach
  void listen() {
    lines.start();
    logger.addAppender(lines);
  }

  @AfterEach
  void stop() {
    if (task != null) {
      task.stop();
    }
    logger.detachAppender(lines);
    time.dispose();
  }

  PeriodicTask task(Supplier<Mono<Void>> work) {
    return new PeriodicTask("test", EVERY, work, clock, meters).on(time);
  }

  /** A run that counts itself and ends at once. */
  Mono<Void> quick() {
    return Mono.fromRunnable(runs::incrementAndGet);
  }

  double count(String outcome) {
    return meters
        .get("anteroom.task.runs")
        .tag("task", "test")
        .tag("outcome", outcome)
        .counter()
        .count();
  }

  void tick(int ticks) {
    time.advanceTimeBy(EVERY.multipliedBy(ticks));
  }

  @Test
  void firstRunWhenStartedThenComesOneIntervalLaterAndThenEveryInterval() {
    task = task(this::quick);
    task.start();

    time.advanceTimeBy(EVERY.minusMillis(1));
    assertThat(runs).hasValue(0);
    time.advanceTimeBy(Duration.ofMillis(1));
    assertThat(runs).hasValue(1);
    tick(3);

    assertThat(runs).hasValue(4);
    assertThat(count("done")).isEqualTo(4);
    assertThat(task.isRunning()).isTrue();
  }

  @Test
  void tickWhenTheRunBeforeIsStillGoingThenIsSkippedCountedAndWarnedOnce() {
    Sinks.Empty<Void> slow = Sinks.empty();
    task = task(() -> quick().then(slow.asMono()));
    task.start();

    tick(4);
    assertThat(runs).as("only the first tick ran").hasValue(1);
    assertThat(count("skipped")).isEqualTo(3);
    assertThat(messages()).containsExactly("task=test still running after PT0.25S; tick skipped");

    slow.tryEmitEmpty();
    tick(1);
    assertThat(runs).as("the next tick after the slow run ends runs").hasValue(2);
    assertThat(count("done")).isEqualTo(2);
  }

  @Test
  void runWhenItFailsThenIsCountedWarnedOnceAnIntervalAndTheNextTickRuns() {
    task = task(() -> quick().then(Mono.error(new IllegalStateException("Redis away"))));
    task.start();

    tick(5);
    clock.advance(PeriodicTask.WARN_EVERY);
    tick(1);

    assertThat(runs).hasValue(6);
    assertThat(count("failed")).isEqualTo(6);
    assertThat(count("done")).isZero();
    assertThat(messages())
        .containsExactly(
            "task=test failed; the next tick runs anyway: java.lang.IllegalStateException:"
                + " Redis away",
            "task=test failed; the next tick runs anyway: java.lang.IllegalStateException:"
                + " Redis away (4 similar warnings suppressed)");
  }

  @Test
  void workWhenItThrowsInsteadOfGivingARunThenCountsAsAFailedRun() {
    task =
        task(
            () -> {
              if (runs.incrementAndGet() == 1) {
                throw new IllegalArgumentException("bad");
              }
              return Mono.empty();
            });
    task.start();

    tick(2);

    assertThat(count("failed")).isEqualTo(1);
    assertThat(count("done")).isEqualTo(1);
  }

  @Test
  void triggerWhenNoRunIsInFlightThenRunsAtOnceAndOtherwiseJoinsTheRunUncounted() {
    Sinks.Empty<Void> slow = Sinks.empty();
    task = task(() -> quick().then(slow.asMono()));

    task.trigger();
    task.trigger();
    task.trigger();

    assertThat(runs).hasValue(1);
    assertThat(count("skipped")).isZero();
    slow.tryEmitEmpty();
    assertThat(count("done")).isEqualTo(1);
    assertThat(task.isRunning()).as("triggers need no start").isFalse();
  }

  @Test
  void stopWhenALastRunIsAskedThenStartsItOnceTheRunInFlightEnds() {
    Sinks.Empty<Void> slow = Sinks.empty();
    task =
        task(() -> runs.incrementAndGet() == 1 ? slow.asMono() : Mono.empty()).withLastRunOnStop();
    task.start();
    tick(1);

    task.stop();
    assertThat(runs).as("not before the run in flight ends").hasValue(1);
    slow.tryEmitEmpty();

    assertThat(runs).hasValue(2);
    tick(10);
    assertThat(runs).as("no tick after stop").hasValue(2);
    assertThat(task.isRunning()).isFalse();
  }

  @Test
  void stopWhenNoLastRunIsAskedThenOnlyEndsTheTicks() {
    task = task(this::quick);
    task.start();
    tick(2);

    task.stop();
    tick(10);

    assertThat(runs).hasValue(2);
  }

  @Test
  void stopWhenTheRunInFlightEndsWithinTheWaitThenReturnsAfterIt() {
    AtomicBoolean ended = new AtomicBoolean();
    CompletableFuture<Void> gate = new CompletableFuture<>();
    task =
        task(() -> Mono.fromFuture(gate).doOnSuccess(v -> ended.set(true)))
            .withStopWait(Duration.ofMinutes(1));
    task.start();
    tick(1);
    // Ends the run once stop has ended the ticks, from another thread.
    CompletableFuture.runAsync(
        () -> {
          await().pollInterval(Duration.ofMillis(1)).until(() -> !task.isRunning());
          gate.complete(null);
        });

    task.stop();

    assertThat(ended).isTrue();
  }

  @Test
  void stopWhenTheRunOutlastsTheWaitThenReturnsAndLeavesItGoing() {
    task = task(Mono::never).withStopWait(Duration.ofMillis(1));
    task.start();
    tick(1);

    task.stop();

    assertThat(task.idle()).isNotDone();
    assertThat(messages())
        .containsExactly("task=test still running PT0.001S after stop; left to finish alone");
  }

  @Test
  void seriesOfEveryOutcomeExistFromConstruction() {
    task = task(this::quick);

    assertThat(count("done")).isZero();
    assertThat(count("failed")).isZero();
    assertThat(count("skipped")).isZero();
  }

  @Test
  void intervalWhenNotPositiveThenRefusedNamingTheTask() {
    assertThatThrownBy(() -> new PeriodicTask("flush", Duration.ZERO, Mono::empty, clock, meters))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("flush");
  }

  java.util.List<String> messages() {
    return lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }
}
