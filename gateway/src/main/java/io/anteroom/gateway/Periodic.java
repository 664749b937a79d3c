package io.anteroom.gateway;

import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Runs a piece of background work every interval while the application runs: a tick that comes
 * while the previous run is still going is dropped, so a slow Redis never piles up runs, and a run
 * that fails is logged and the next tick runs anyway. On stop, an optional last run (to send what
 * is buffered) is started.
 */
public final class Periodic implements SmartLifecycle {

  private static final Logger log = LoggerFactory.getLogger(Periodic.class);

  private final String name;
  private final Duration every;
  private final Supplier<Mono<Void>> work;
  private final boolean runOnStop;
  private volatile Disposable running;

  /**
   * @param name what the work is, for logs
   * @param work the run; subscribed once per tick
   * @param runOnStop whether to start one last run when stopped
   */
  public Periodic(String name, Duration every, Supplier<Mono<Void>> work, boolean runOnStop) {
    this.name = name;
    this.every = every;
    this.work = work;
    this.runOnStop = runOnStop;
  }

  @Override
  public synchronized void start() {
    if (running == null) {
      running =
          Flux.interval(every).onBackpressureDrop().concatMap(tick -> safeRun(), 1).subscribe();
    }
  }

  @Override
  public synchronized void stop() {
    if (running != null) {
      running.dispose();
      running = null;
      if (runOnStop) {
        safeRun().subscribe();
      }
    }
  }

  @Override
  public boolean isRunning() {
    return running != null;
  }

  private Mono<Void> safeRun() {
    return Mono.defer(work)
        .onErrorResume(
            error -> {
              log.warn("{} failed; the next tick runs anyway: {}", name, error.toString());
              return Mono.empty();
            });
  }
}
