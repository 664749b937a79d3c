package io.anteroom.queue.tick;

import io.anteroom.queue.log.ThrottledWarnings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Runs background work every interval while started, the first run one interval after {@link
 * #start()}. A tick that comes while the previous run is still going is skipped, so a slow Redis
 * never piles up runs; a run that fails is logged and the next tick runs anyway. Skips and failures
 * are warned about at most once per {@link #WARN_EVERY} each, and every tick is counted in {@code
 * anteroom.task.runs{task, outcome}}, {@code outcome} one of {@code done}, {@code failed} and
 * {@code skipped}; the three series exist from construction.
 *
 * <p>The caller's obligations:
 *
 * <ul>
 *   <li>{@code work} gives a new cold {@link Mono} per run, which must not block its thread and
 *       must end: a run that never ends skips every tick after it (give each Redis call a timeout);
 *   <li>{@code name} is a constant: it tags the metric, so it must never come from a request;
 *   <li>a failed run is only logged and counted, so work that must not lose data keeps what it
 *       could not send for its next run.
 * </ul>
 *
 * A run is never cancelled: {@link #stop()} only ends the ticks, then starts the last run if there
 * is one ({@link #withLastRunOnStop()}) once the run in flight is done, and waits for both for at
 * most the stop wait ({@link #withStopWait}, none by default).
 */
public final class PeriodicTask implements SmartLifecycle {

  /** How often at most a task warns that its runs fail, and apart from that, that ticks skip. */
  public static final Duration WARN_EVERY = Duration.ofSeconds(10);

  private static final Logger log = LoggerFactory.getLogger(PeriodicTask.class);
  private static final CompletableFuture<Void> IDLE = CompletableFuture.completedFuture(null);

  private final String name;
  private final Duration interval;
  private final Supplier<Mono<Void>> work;
  private final ThrottledWarnings warnings;
  private final MeterRegistry meters;
  private final Counter done;
  private final Counter failed;
  private final Counter skipped;
  private final boolean lastRunOnStop;
  private final Duration stopWait;
  private final Scheduler scheduler;
  private final AtomicReference<CompletableFuture<Void>> inFlight = new AtomicReference<>();
  private Disposable ticking;

  /**
   * @param name what the work is, for logs and the metric's {@code task} tag
   * @param interval time between ticks
   * @param work the run, asked for once per run
   * @param clock the time the warnings are rate-limited by
   */
  public PeriodicTask(
      String name,
      Duration interval,
      Supplier<Mono<Void>> work,
      Clock clock,
      MeterRegistry meters) {
    this(
        name,
        interval,
        work,
        new ThrottledWarnings(log, clock, WARN_EVERY),
        meters,
        false,
        Duration.ZERO,
        Schedulers.parallel());
  }

  private PeriodicTask(
      String name,
      Duration interval,
      Supplier<Mono<Void>> work,
      ThrottledWarnings warnings,
      MeterRegistry meters,
      boolean lastRunOnStop,
      Duration stopWait,
      Scheduler scheduler) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException(name + ": the interval must be positive: " + interval);
    }
    this.name = name;
    this.interval = interval;
    this.work = work;
    this.warnings = warnings;
    this.done = counter(meters, name, "done");
    this.failed = counter(meters, name, "failed");
    this.skipped = counter(meters, name, "skipped");
    this.lastRunOnStop = lastRunOnStop;
    this.stopWait = stopWait;
    this.scheduler = scheduler;
    this.meters = meters;
  }

  /** This task, with one more run started on stop (to send what is buffered). */
  public PeriodicTask withLastRunOnStop() {
    return new PeriodicTask(name, interval, work, warnings, meters, true, stopWait, scheduler);
  }

  /** This task, whose {@link #stop()} waits at most {@code wait} for the runs it leaves going. */
  public PeriodicTask withStopWait(Duration wait) {
    return new PeriodicTask(name, interval, work, warnings, meters, lastRunOnStop, wait, scheduler);
  }

  /** This task, ticking on {@code ticks} (a virtual clock in tests). */
  PeriodicTask on(Scheduler ticks) {
    return new PeriodicTask(name, interval, work, warnings, meters, lastRunOnStop, stopWait, ticks);
  }

  @Override
  public synchronized void start() {
    if (ticking == null) {
      ticking = Flux.interval(interval, scheduler).subscribe(tick -> tick());
    }
  }

  @Override
  public void stop() {
    Disposable ticks;
    synchronized (this) {
      ticks = ticking;
      ticking = null;
    }
    if (ticks == null) {
      return;
    }
    ticks.dispose();
    CompletableFuture<Void> left =
        lastRunOnStop ? idle().thenCompose(previous -> runUnlessBusy()) : idle();
    await(left);
  }

  @Override
  public synchronized boolean isRunning() {
    return ticking != null;
  }

  /**
   * Runs now, unless a run is in flight: then that run stands for this one (an event announcing a
   * change while a read is going is not counted as a skip).
   */
  public void trigger() {
    runUnlessBusy();
  }

  private void tick() {
    if (inFlight.get() != null) {
      skipped.increment();
      warnings.warn("skipped", "task={} still running after {}; tick skipped", name, interval);
      return;
    }
    runUnlessBusy();
  }

  /** Starts a run unless one is in flight; the run in flight once called. */
  private CompletableFuture<Void> runUnlessBusy() {
    CompletableFuture<Void> run = new CompletableFuture<>();
    CompletableFuture<Void> current = inFlight.compareAndExchange(null, run);
    if (current != null) {
      return current;
    }
    Mono.defer(work)
        .doOnSuccess(nothing -> done.increment())
        .onErrorResume(this::failed)
        .doFinally(
            signal -> {
              inFlight.set(null);
              run.complete(null);
            })
        .subscribe();
    return run;
  }

  private Mono<Void> failed(Throwable error) {
    failed.increment();
    warnings.warn(
        "failed", "task={} failed; the next tick runs anyway: {}", name, error.toString());
    return Mono.empty();
  }

  /** The run in flight, or a completed future when there is none. */
  CompletableFuture<Void> idle() {
    CompletableFuture<Void> current = inFlight.get();
    return current == null ? IDLE : current;
  }

  private void await(CompletableFuture<Void> left) {
    if (stopWait.isZero() || left.isDone()) {
      return;
    }
    try {
      left.get(stopWait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      log.warn("task={} still running {} after stop; left to finish alone", name, stopWait);
    } catch (ExecutionException e) {
      // Runs complete normally: their errors are handled above.
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Counter counter(MeterRegistry meters, String task, String outcome) {
    return Counter.builder("anteroom.task.runs")
        .description("Runs of a periodic task: done, failed, or skipped (the last still ran)")
        .tag("task", task)
        .tag("outcome", outcome)
        .register(meters);
  }
}
