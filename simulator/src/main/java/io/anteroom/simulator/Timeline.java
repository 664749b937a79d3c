package io.anteroom.simulator;

import java.util.Arrays;

/** A run's samples, one a second of virtual time: line length, sessions, admissions so far. */
public final class Timeline {

  /** Slices of the arrivals' span that the wait by arrival time is told in. */
  public static final int SLICES = 200;

  private long[] second = new long[64];
  private long[] waiting = new long[64];
  private long[] active = new long[64];
  private long[] admitted = new long[64];
  private long[] arrived = new long[64];
  private int size;

  void add(long atSecond, long inLine, long running, long admittedSoFar, long arrivedSoFar) {
    if (size == second.length) {
      second = Arrays.copyOf(second, size * 2);
      waiting = Arrays.copyOf(waiting, size * 2);
      active = Arrays.copyOf(active, size * 2);
      admitted = Arrays.copyOf(admitted, size * 2);
      arrived = Arrays.copyOf(arrived, size * 2);
    }
    second[size] = atSecond;
    waiting[size] = inLine;
    active[size] = running;
    admitted[size] = admittedSoFar;
    arrived[size] = arrivedSoFar;
    size++;
  }

  public int size() {
    return size;
  }

  /** Seconds from the start of the run. */
  public long second(int i) {
    return second[i];
  }

  public long waiting(int i) {
    return waiting[i];
  }

  public long active(int i) {
    return active[i];
  }

  public long admitted(int i) {
    return admitted[i];
  }

  public long arrived(int i) {
    return arrived[i];
  }
}
