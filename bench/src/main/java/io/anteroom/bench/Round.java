package io.anteroom.bench;

import java.util.Map;

/**
 * Every phase of one round on the same server, by name: A1 {@code join} ({@code join.lua}) and
 * {@code enqueue} ({@code enqueue.lua}); A2 {@code admit}, then {@code trim} (the admission calls
 * that trim the admitted visitors' stale seen entries) and {@code idle} (as many calls with nothing
 * to do: their fixed cost); the same three for the room across its queues ({@code room_admit.lua}):
 * {@code roomAdmit}, {@code roomTrim}, {@code roomIdle}; {@code admitGrowing}, one queue's
 * admission whose sessions never end, for its longest call; B1 {@code rawEnqueue} and {@code
 * scriptedEnqueue}; B2 {@code rawAdmit}, {@code scriptedAdmit}, {@code admitFloor} and {@code
 * admitCommands}; {@code returnOnly}, {@code joinFloor} and {@code joinCommands}. Memory in bytes
 * per waiting visitor and per plain sorted-set member.
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
    "roomAdmit",
    "roomTrim",
    "roomIdle",
    "admitGrowing",
    "rawEnqueue",
    "scriptedEnqueue",
    "rawAdmit",
    "scriptedAdmit",
    "admitFloor",
    "admitCommands",
    "returnOnly",
    "joinFloor",
    "joinCommands"
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
    return admitUsec("admit", "trim");
  }

  /** As {@link #admitUsec}, for the room's admission across its queues. */
  double roomAdmitUsec() {
    return admitUsec("roomAdmit", "roomTrim");
  }

  /**
   * The trimming's share of {@link #admitUsec}: the trimming calls less as many calls with nothing
   * to do, whose fixed cost in service the admitting calls already pay.
   */
  double trimUsec() {
    return trimUsec("admit", "trim", "idle");
  }

  double roomTrimUsec() {
    return trimUsec("roomAdmit", "roomTrim", "roomIdle");
  }

  double longestAdmitUsec() {
    return Math.max(phase("admit").longestSliceUsec(), phase("trim").longestSliceUsec());
  }

  double longestRoomAdmitUsec() {
    return Math.max(phase("roomAdmit").longestSliceUsec(), phase("roomTrim").longestSliceUsec());
  }

  private double admitUsec(String admit, String trim) {
    return (double) (phase(admit).scriptUsec() + phase(trim).scriptUsec())
        / phase(admit).operations;
  }

  private double trimUsec(String admit, String trim, String idle) {
    return (double) Math.max(0, phase(trim).scriptUsec() - phase(idle).scriptUsec())
        / phase(admit).operations;
  }
}
