package io.anteroom.queue;

import static java.lang.Double.NaN;

/**
 * What joining a line gave a visitor. Neither admitted nor in line (position 0): a repeated call
 * found the visitor finished since, and left them so; if they come back, they join again.
 *
 * @param admitted true when the visitor went straight in (empty line, bucket and cap allowed)
 * @param position 1-based place in line; 0 when admitted, or finished
 * @param waiting people in line after the call
 * @param requeued true when the visitor had finished (ended, released or abandoned) and joined
 *     again at the back
 * @param added true when this call put the visitor in line or in running; false when they were
 *     there already (a repeated call), or took back the place the store lost (a rejoin, {@link
 *     QueueStore#enqueue(QueueId, String, java.time.Instant, io.anteroom.queue.policy.RoomPolicy)})
 * @param measuredRate when waiting: the queue's admissions per second as measured lately (30 s time
 *     constant); 0 when not known
 * @param capWait when waiting: how long the cap on running sessions holds the place back
 * @param lineAdmittedAt when admitted: when the line let the visitor in (epoch ms), this very call
 *     or an earlier admission; 0 for one found running without the line's admission (a pass given
 *     while the queue was off), and otherwise
 * @param place when waiting: the score of the visitor's place in the line, for their ticket (a line
 *     the store lost takes them back there, in its order); NaN otherwise
 */
public record EnqueueResult(
    boolean admitted,
    long position,
    long waiting,
    boolean requeued,
    boolean added,
    double measuredRate,
    CapWait capWait,
    long lineAdmittedAt,
    double place) {

  /** A result whose place is not known. */
  public EnqueueResult(
      boolean admitted,
      long position,
      long waiting,
      boolean requeued,
      boolean added,
      double measuredRate,
      CapWait capWait,
      long lineAdmittedAt) {
    this(admitted, position, waiting, requeued, added, measuredRate, capWait, lineAdmittedAt, NaN);
  }

  /** A result without an admission by the line. */
  public EnqueueResult(
      boolean admitted,
      long position,
      long waiting,
      boolean requeued,
      boolean added,
      double measuredRate,
      CapWait capWait) {
    this(admitted, position, waiting, requeued, added, measuredRate, capWait, 0);
  }

  /** A result the cap does not hold back. */
  public EnqueueResult(
      boolean admitted,
      long position,
      long waiting,
      boolean requeued,
      boolean added,
      double measuredRate) {
    this(admitted, position, waiting, requeued, added, measuredRate, CapWait.NONE);
  }

  /** A result without a measured rate. */
  public EnqueueResult(
      boolean admitted, long position, long waiting, boolean requeued, boolean added) {
    this(admitted, position, waiting, requeued, added, 0);
  }
}
