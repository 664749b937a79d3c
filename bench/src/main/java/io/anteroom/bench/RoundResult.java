package io.anteroom.bench;

/**
 * Every phase of one round, measured on the same server.
 *
 * @param round 1-based; 0 for warm-up
 * @param order which side took the first slice, {@code A,B} or {@code B,A}; they alternate
 * @param enqueue A1: {@code enqueue.lua}
 * @param admit A2: {@code admit.lua}
 * @param rawEnqueue B1: raw {@code ZADD NX} + {@code ZRANK}
 * @param scriptedEnqueue B1 by script: EVALSHA of {@code ZADD NX} + {@code ZRANK}
 * @param rawAdmit B2: raw {@code ZPOPMIN} + {@code ZADD}
 * @param returnOnly EVALSHA of a script that only returns, with enqueue's keys and arguments
 */
record RoundResult(
    int round,
    String order,
    PhaseResult enqueue,
    PhaseResult admit,
    PhaseResult rawEnqueue,
    PhaseResult scriptedEnqueue,
    PhaseResult rawAdmit,
    PhaseResult returnOnly) {

  double enqueueUsec() {
    return enqueue.scriptUsecPer();
  }

  double rawEnqueueUsec() {
    return rawEnqueue.usecPer("zadd", "zrank");
  }

  double scriptedEnqueueUsec() {
    return scriptedEnqueue.scriptUsecPer();
  }

  double returnOnlyUsec() {
    return returnOnly.scriptUsecPer();
  }

  double admitUsec() {
    return admit.scriptUsecPer();
  }

  double rawAdmitUsec() {
    return rawAdmit.usecPer("zpopmin", "zadd");
  }

  double medianAdmitCallUsec() {
    return admit.medianSliceUsec();
  }

  double longestAdmitUsec() {
    return admit.longestSliceUsec();
  }
}
