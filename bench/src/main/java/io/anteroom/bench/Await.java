package io.anteroom.bench;

import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Blocks on Redis replies; a benchmark's driver thread has nothing better to do meanwhile. */
public final class Await {

  private static final long TIMEOUT_SECONDS = 60;

  private Await() {}

  public static <T> T result(CompletionStage<T> stage) {
    try {
      return stage.toCompletableFuture().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for Redis", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("Redis call failed: " + e.getCause().getMessage(), e);
    } catch (TimeoutException e) {
      throw new IllegalStateException("no reply from Redis in " + TIMEOUT_SECONDS + " s", e);
    }
  }

  /** Fails the run when a count Redis reports is not what the phase should have left behind. */
  static void expect(String what, long expected, CompletionStage<Long> actual) {
    long value = result(actual);
    if (value != expected) {
      throw new IllegalStateException(what + ": expected " + expected + ", found " + value);
    }
  }
}
