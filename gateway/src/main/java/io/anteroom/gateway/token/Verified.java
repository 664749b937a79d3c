package io.anteroom.gateway.token;

import java.util.Objects;

/**
 * The outcome of reading a token: the value, or why it was rejected. Reading never throws on bad
 * input, so a hostile cookie can never become a 500.
 *
 * @param <T> what a valid token holds
 */
public sealed interface Verified<T> {

  /** A token that passed every check. */
  static <T> Verified<T> valid(T value) {
    return new Valid<>(value);
  }

  /** A rejected token; one shared instance per reason. */
  @SuppressWarnings("unchecked")
  static <T> Verified<T> rejected(Rejection reason) {
    return (Verified<T>) Rejected.SHARED[reason.ordinal()];
  }

  /** Whether the token passed every check. */
  default boolean isValid() {
    return this instanceof Valid;
  }

  /**
   * @param value what the token holds
   */
  record Valid<T>(T value) implements Verified<T> {
    public Valid {
      Objects.requireNonNull(value, "value");
    }
  }

  /**
   * @param reason the first check the token failed
   */
  record Rejected<T>(Rejection reason) implements Verified<T> {
    private static final Rejected<?>[] SHARED = shared();

    public Rejected {
      Objects.requireNonNull(reason, "reason");
    }

    private static Rejected<?>[] shared() {
      Rejection[] reasons = Rejection.values();
      Rejected<?>[] shared = new Rejected<?>[reasons.length];
      for (Rejection reason : reasons) {
        shared[reason.ordinal()] = new Rejected<>(reason);
      }
      return shared;
    }
  }
}
