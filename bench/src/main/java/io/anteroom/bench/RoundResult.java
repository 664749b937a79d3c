package io.anteroom.bench;

/**
 * Every phase of one round, measured on the same server.
 *
 * @param round 1-based; 0 for warm-up
 * @param order which side took the first slice, {@code A,B} or {@code B,A}; they alternate
 * @param join A1: {@code join.lua}, newcomers with minted ids
 * @param enqueue A1 by {@code enqueue.lua}, the path for ids that may have been here before
 * @param admit A2: {@code admit.lua} admitting
 * @param trim A2 later: the admission calls that trim the admitted visitors' stale seen entries
 * @param idle as many admission calls with nothing to admit or trim: their fixed cost
 * @param rawEnqueue B1: raw {@code ZADD NX} + {@code ZRANK}
 * @param scriptedEnqueue B1 by script: EVALSHA of {@code ZADD NX} + {@code ZRANK}
 * @param rawAdmit B2: raw {@code ZPOPMIN} + {@code ZADD}
 * @param scriptedAdmit B2 by script: EVALSHA of {@code ZPOPMIN} + {@code ZADD}
 * @param admitFloor EVALSHA of what admission with abandonment needs and nothing else
 * @param returnOnly EVALSHA of a script that only returns, with enqueue's keys and arguments
 * @param joinFloor EVALSHA of the four commands a join needs and nothing else
 * @param waitingBytes memory per visitor waiting in line, everything the store writes included
 * @param memberBytes memory per member of a plain sorted set of the same ids
 */
record RoundResult(
    int round,
    String order,
    PhaseResult join,
    PhaseResult enqueue,
    PhaseResult admit,
    PhaseResult trim,
    PhaseResult idle,
    PhaseResult rawEnqueue,
    PhaseResult scriptedEnqueue,
    PhaseResult rawAdmit,
    PhaseResult scriptedAdmit,
    PhaseResult admitFloor,
    PhaseResult returnOnly,
    PhaseResult joinFloor,
    double waitingBytes,
    double memberBytes) {

  double joinUsec() {
    return join.scriptUsecPer();
  }

  double joinFloorUsec() {
    return joinFloor.scriptUsecPer();
  }

  double scriptedAdmitUsec() {
    return scriptedAdmit.scriptUsecPer();
  }

  double admitFloorUsec() {
    return admitFloor.scriptUsecPer();
  }

  double memoryRatio() {
    return waitingBytes / memberBytes;
  }

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

  /** Admitting and, later, trimming what admitting left in seen, per admitted visitor. */
  double admitUsec() {
    return (double) (admit.usec(PhaseResult.SCRIPTS) + trim.usec(PhaseResult.SCRIPTS))
        / admit.operations();
  }

  /**
   * The trimming's share of {@link #admitUsec}: the trimming calls less as many calls with nothing
   * to do, whose fixed cost in service the admitting calls already pay.
   */
  double trimUsec() {
    return (double) Math.max(0, trim.usec(PhaseResult.SCRIPTS) - idle.usec(PhaseResult.SCRIPTS))
        / admit.operations();
  }

  double rawAdmitUsec() {
    return rawAdmit.usecPer("zpopmin", "zadd");
  }

  double medianAdmitCallUsec() {
    return admit.medianSliceUsec();
  }

  double longestAdmitUsec() {
    return Math.max(admit.longestSliceUsec(), trim.longestSliceUsec());
  }
}
