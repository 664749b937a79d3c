package io.anteroom.queue;

/**
 * Where a visitor stands in a queue.
 *
 * @param state the visitor's state
 * @param position 1-based place in line when waiting, otherwise 0
 * @param waiting people in line
 * @param admittedAt when {@link State#ADMITTED}: the session's last activity (epoch ms), which is
 *     the admission time until the visitor's first request with a pass; otherwise 0
 * @param measuredRate when {@link State#WAITING}: the queue's admissions per second as measured
 *     lately (30 s time constant); 0 when not known
 * @param capWait when {@link State#WAITING} and asked for: how long the cap on running sessions
 *     holds the place back; otherwise {@link CapWait#NONE}
 * @param front when {@link State#WAITING}: the place is at the front kept for visitors the origin
 *     failed right after admission ({@link QueueStore#reenter}); otherwise false
 * @param lineAdmittedAt when {@link State#ADMITTED}: when the line let the visitor in (epoch ms),
 *     which confirmations do not move; 0 for one running without the line's admission (a pass given
 *     while the queue was off, a session taken back), and otherwise
 */
public record VisitorStatus(
    State state,
    long position,
    long waiting,
    long admittedAt,
    double measuredRate,
    CapWait capWait,
    boolean front,
    long lineAdmittedAt) {

  /** A status without an admission by the line. */
  public VisitorStatus(
      State state,
      long position,
      long waiting,
      long admittedAt,
      double measuredRate,
      CapWait capWait,
      boolean front) {
    this(state, position, waiting, admittedAt, measuredRate, capWait, front, 0);
  }

  /** A status without a measured rate. */
  public VisitorStatus(State state, long position, long waiting, long admittedAt) {
    this(state, position, waiting, admittedAt, 0);
  }

  /** A status the cap does not hold back. */
  public VisitorStatus(
      State state, long position, long waiting, long admittedAt, double measuredRate) {
    this(state, position, waiting, admittedAt, measuredRate, CapWait.NONE, false);
  }

  /** A visitor's state in one queue. */
  public enum State {
    /** Not known to this queue. */
    UNKNOWN,
    /** In line. */
    WAITING,
    /** Admitted: in running. */
    ADMITTED,
    /** Session ended, released, or place given up by not polling; within the retention time. */
    FINISHED
  }
}
