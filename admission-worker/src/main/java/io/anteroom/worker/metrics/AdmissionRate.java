package io.anteroom.worker.metrics;

import java.util.ArrayDeque;

/**
 * A queue's measured admission rate: admissions per second over the last {@link #WINDOW_MS}, from
 * the queue's lifetime admission count in Redis. Every worker reads the same count, so every worker
 * measures all admissions, its own and the others'.
 */
final class AdmissionRate {

  static final long WINDOW_MS = 10_000;

  /** (time ms, lifetime admissions), oldest first, spanning at most the window. */
  private final ArrayDeque<long[]> samples = new ArrayDeque<>();

  /** Adds a reading; a count that went down (the queue's keys were removed) starts over. */
  synchronized void add(long nowMs, long admittedTotal) {
    long[] last = samples.peekLast();
    if (last != null && (admittedTotal < last[1] || nowMs < last[0])) {
      samples.clear();
    }
    samples.addLast(new long[] {nowMs, admittedTotal});
    while (samples.size() > 2 && samples.peekFirst()[0] < nowMs - WINDOW_MS) {
      samples.removeFirst();
    }
  }

  /** Admissions per second between the oldest and newest reading; 0 before two readings. */
  synchronized double perSecond() {
    long[] first = samples.peekFirst();
    long[] last = samples.peekLast();
    if (first == null || last[0] == first[0]) {
      return 0;
    }
    return (last[1] - first[1]) * 1000.0 / (last[0] - first[0]);
  }
}
