package io.anteroom.bench;

/**
 * Every phase of one round, measured on the same server.
 *
 * @param round 1-based; 0 for warm-up
 * @param order which side ran first, {@code A,B} or {@code B,A}
 * @param enqueue A1: {@code enqueue.lua}
 * @param admit A2: {@code admit.lua}
 * @param rawEnqueue B1: raw {@code ZADD NX} + {@code ZRANK}
 * @param scriptedEnqueue B1 by script: EVALSHA of {@code ZADD NX} + {@code ZRANK}
 * @param rawAdmit B2: raw {@code ZPOPMIN} + {@code ZADD}
 */
record RoundResult(
    int round,
    String order,
    PhaseResult enqueue,
    QueuePhases.AdmitMeasurement admit,
    PhaseResult rawEnqueue,
    PhaseResult scriptedEnqueue,
    PhaseResult rawAdmit) {

  double enqueueUsec() {
    return enqueue.scriptUsecPer();
  }

  double rawEnqueueUsec() {
    return rawEnqueue.usecPer("zadd", "zrank");
  }

  double scriptedEnqueueUsec() {
    return scriptedEnqueue.scriptUsecPer();
  }

  double admitUsec() {
    return admit.phase().scriptUsecPer();
  }

  double rawAdmitUsec() {
    return rawAdmit.usecPer("zpopmin", "zadd");
  }

  double longestAdmitUsec() {
    return admit.longestCallUsec();
  }
}
