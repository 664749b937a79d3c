package io.anteroom.queue.time;

import io.anteroom.queue.tick.PeriodicTask;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import org.springframework.context.SmartLifecycle;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * Keeps {@link RedisTime} measured: once before anything else of the app starts (the first phase),
 * so neither the worker's first tick nor the gateway's first visitor uses the machine's clock as it
 * is, waiting at most {@link #FIRST_WAIT} for Redis; then every {@link RedisTime#SYNC} (task {@code
 * clock}). An app that starts without Redis measures as soon as Redis answers, within a second;
 * before that it writes nothing to Redis anyway.
 */
public final class RedisTimeSync implements SmartLifecycle {

  static final Duration FIRST_WAIT = Duration.ofSeconds(3);
  private static final Duration FIRST_RETRY = Duration.ofMillis(100);

  private final RedisTime time;
  private final RedisClusterAsyncCommands<String, String> commands;
  private final PeriodicTask task;

  public RedisTimeSync(
      RedisTime time, RedisClusterAsyncCommands<String, String> commands, MeterRegistry meters) {
    this.time = time;
    this.commands = commands;
    this.task = new PeriodicTask("clock", RedisTime.SYNC, () -> time.sync(commands), time, meters);
  }

  @Override
  public void start() {
    time.sync(commands)
        .retryWhen(Retry.fixedDelay(Long.MAX_VALUE, FIRST_RETRY))
        .timeout(FIRST_WAIT)
        .onErrorResume(error -> Mono.empty())
        .block();
    task.start();
  }

  @Override
  public void stop() {
    task.stop();
  }

  @Override
  public boolean isRunning() {
    return task.isRunning();
  }

  @Override
  public int getPhase() {
    return Integer.MIN_VALUE;
  }
}
