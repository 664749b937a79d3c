package io.anteroom.guard;

/** How a guarded origin answers a request without a valid pass. */
public enum OnRefusal {
  /**
   * {@code 303 See Other} to the same path and query at the gateway, for a request that carries no
   * pass; {@code 403} for one whose pass is refused, which came from the gateway or was made up,
   * and would only come back.
   */
  REDIRECT,
  /** {@code 403 Forbidden} with a one-line body naming the reason. */
  FORBIDDEN
}
