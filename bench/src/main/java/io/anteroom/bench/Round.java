package io.anteroom.bench;

import java.util.Map;

/**
 * Every phase of one round on the same server, by name: A1 {@code join} ({@code join.lua}) and
 * {@code enqueue} ({@code enqueue.lua}); A2 {@code admit}, then {@code trim} (the admission calls
 * that trim the admitted visitors' stale seen entries) and {@code idle} (as many calls with nothing
 * to do: their fixed cost); B1 {@code rawEnqueue} and {@code scriptedEnqueue}; B2 {@code rawAdmit},
 * {@code scriptedAdmit} and {@code admitFloor}; {@code returnOnly} and {@code joinFloor}. Memory in
 * bytes per waiting visitor and per plain sorted-set member.
 *
 * @param number 1-based; 0 for warm-up
 * @param order which side took the first slice, {@code A,B} or {@code B,A}; they alternate
 */
record Round(
    int number, String order, Map<String, Phase> phases, double waitingBytes, double memberBytes) {

  static final String[] PHASES = {
    "join",
    "enqueue",
    "admit",
    "trim",
    "idle",
    "rawEnqueue",
    "scriptedEnqueue",
    "rawAdmit",
    "scriptedAdmit",
    "admitFloor",
    "returnOnly",
    "joinFloor"
  };

  Phase phase(String name) {
    return phases.get(name);
  }

  /** Script µs per operation of phase {@code name}. */
  double script(String name) {
    return phase(name).scriptUsecPer();
  }

  double rawEnqueueUsec() {
    return phase("rawEnqueue").usecPer("zadd", "zrank");
  }

  double rawAdmitUsec() {
    return phase("rawAdmit").usecPer("zpopmin", "zadd");
  }

  /** Admitting and, later, trimming what admitting left in seen, per admitted visitor. */
  double admitUsec() {
    return (double) (phase("admit").scriptUsec() + phase("trim").scriptUsec())
        / phase("admit").operations;
  }

  /**
   * The trimming's share of {@link #admitUsec}: the trimming calls less as many calls with nothing
   * to do, whose fixed cost in service the admitting calls already pay.
   */
  double trimUsec() {
    return (double) Math.max(0, phase("trim").scriptUsec() - phase("idle").scriptUsec())
        / phase("admit").operations;
  }

  double longestAdmitUsec() {
    return Math.max(phase("admit").longestSliceUsec(), phase("trim").longestSliceUsec());
  }
}
