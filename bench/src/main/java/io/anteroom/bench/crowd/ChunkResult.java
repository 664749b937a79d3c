package io.anteroom.bench.crowd;

/**
 * One stretch of the crowd joining through the gateway between two heap readings.
 *
 * @param joins joins sent
 * @param waitingAnswers of them, answered as waiting with a ticket
 * @param otherStatuses statuses of the other answers
 * @param seconds from the first request to the last answer
 * @param lineBefore people in line before (ZCARD)
 * @param lineAfter people in line afterwards (ZCARD)
 * @param positionsContiguous whether the positions answered were exactly the places after the line
 *     as it was before, each once
 */
record ChunkResult(
    int joins,
    int waitingAnswers,
    String otherStatuses,
    double seconds,
    long lineBefore,
    long lineAfter,
    boolean positionsContiguous) {

  static ChunkResult of(JoinLog log, long lineBefore, long lineAfter) {
    boolean[] seen = new boolean[log.size()];
    boolean contiguous = true;
    for (int i = 0; i < log.size(); i++) {
      if (log.kinds[i] != Answer.Kind.WAITING) {
        contiguous = false;
        continue;
      }
      long slot = log.positions[i] - lineBefore - 1;
      if (slot < 0 || slot >= seen.length || seen[(int) slot]) {
        contiguous = false;
      } else {
        seen[(int) slot] = true;
      }
    }
    return new ChunkResult(
        log.size(),
        log.waiting(),
        log.otherStatuses(),
        log.seconds(),
        lineBefore,
        lineAfter,
        contiguous);
  }

  double perSecond() {
    return seconds > 0 ? joins / seconds : 0;
  }

  boolean passed() {
    return waitingAnswers == joins && positionsContiguous && lineAfter - lineBefore == joins;
  }
}
