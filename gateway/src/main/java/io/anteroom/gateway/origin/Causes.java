package io.anteroom.gateway.origin;

import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What an error of forwarding says, read down its causes: a bounded walk, so that a cycle among
 * them cannot hold the request.
 */
public final class Causes {

  private static final int DEPTH = 8;

  private Causes() {}

  /** The first answer {@code reading} gives for {@code error} or one of its causes, or null. */
  public static <T> T first(Throwable error, Function<Throwable, T> reading) {
    Throwable cause = error;
    for (int depth = 0; cause != null && depth < DEPTH; depth++, cause = cause.getCause()) {
      T read = reading.apply(cause);
      if (read != null) {
        return read;
      }
    }
    return null;
  }

  /** Whether {@code error} or one of its causes passes {@code test}. */
  public static boolean any(Throwable error, Predicate<Throwable> test) {
    return first(error, cause -> test.test(cause) ? cause : null) != null;
  }
}
