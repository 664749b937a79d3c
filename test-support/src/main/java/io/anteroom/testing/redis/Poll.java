package io.anteroom.testing.redis;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for a condition on servers that settle by themselves (a cluster forming, a failover). */
final class Poll {

  private static final long INTERVAL_MILLIS = 50;

  private Poll() {}

  /**
   * Returns once {@code condition} holds; a server not answering yet counts as not holding.
   *
   * @throws IllegalStateException naming {@code what} when it does not hold within {@code timeout}
   */
  static void until(String what, Duration timeout, BooleanSupplier condition) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!holds(condition)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("not within " + timeout + ": " + what);
      }
      try {
        Thread.sleep(INTERVAL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for: " + what, e);
      }
    }
  }

  private static boolean holds(BooleanSupplier condition) {
    try {
      return condition.getAsBoolean();
    } catch (UncheckedIOException | RedisCommandException notYet) {
      return false;
    }
  }
}
