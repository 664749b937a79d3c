package io.anteroom.queue;

/**
 * What one expiry call did, and the queue's sizes after it.
 *
 * @param expired idle sessions moved from running to finished
 * @param trimmed finished entries removed after the retention time
 * @param waiting people in line
 * @param running admitted sessions
 * @param finished finished entries within the retention time
 * @param admittedTotal visitors admitted over the queue's lifetime, at once or from the line
 */
public record ExpireResult(
    long expired, long trimmed, long waiting, long running, long finished, long admittedTotal) {

  /** Whether this call did as much as one call may: another finds more. */
  public boolean whole() {
    return expired >= RedisQueueStore.EXPIRE_LIMIT || trimmed >= RedisQueueStore.EXPIRE_LIMIT;
  }

  /** This call's work and {@code next}'s, with the sizes after {@code next}: calls of one tick. */
  public ExpireResult then(ExpireResult next) {
    return new ExpireResult(
        expired + next.expired,
        trimmed + next.trimmed,
        next.waiting,
        next.running,
        next.finished,
        next.admittedTotal);
  }
}
