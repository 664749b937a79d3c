package io.anteroom.bench.crowd;

/** Sleeps between polls of a process that is starting; an interrupt ends the run. */
final class Pause {

  private Pause() {}

  static void millis(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
