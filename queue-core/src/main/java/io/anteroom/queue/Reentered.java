package io.anteroom.queue;

/**
 * What became of a visitor the origin failed right after their admission ({@link
 * QueueStore#reenter}), by the reply of reenter.lua.
 */
public enum Reentered {
  /** Back at the front of the line now: their session ended, their slot is free. */
  FRONT,
  /** In line already: a parallel request of theirs went back first. Send them to the line too. */
  ALREADY_WAITING,
  /**
   * Not running on the pass's admission: their session ended, or they went back from it already and
   * were admitted again since. Nothing changed.
   */
  NOT_RUNNING,
  /** They went back {@code reentry-max} times already: nothing changed. */
  AT_MOST;

  /** Whether the visitor has a place in line now, to be sent to. */
  public boolean waiting() {
    return this == FRONT || this == ALREADY_WAITING;
  }

  static Reentered of(long reply) {
    return switch ((int) reply) {
      case 1 -> FRONT;
      case 2 -> ALREADY_WAITING;
      case -1 -> AT_MOST;
      default -> NOT_RUNNING;
    };
  }
}
