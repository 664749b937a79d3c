package io.anteroom.bench.crowd;

/**
 * One stretch of the crowd joining through the gateway between two heap readings.
 *
 * @param waitingAnswers joins answered as waiting with a ticket
 * @param otherStatuses statuses of the other answers
 * @param seconds from the first request to the last answer
 * @param lineBefore people in line before (ZCARD), and {@code lineAfter} afterwards
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
    int waiting = 0;
    for (int i = 0; i < log.size(); i++) {
      long slot = log.waiting(i) ? log.answers[i].position() - lineBefore - 1 : -1;
      contiguous &= slot >= 0 && slot < seen.length && !seen[(int) slot];
      if (slot >= 0 && slot < seen.length) {
        seen[(int) slot] = true;
      }
      waiting += log.waiting(i) ? 1 : 0;
    }
    return new ChunkResult(
        log.size(), waiting, log.otherStatuses(), log.seconds(), lineBefore, lineAfter, contiguous);
  }

  double perSecond() {
    return seconds > 0 ? joins / seconds : 0;
  }

  boolean passed() {
    return waitingAnswers == joins && positionsContiguous && lineAfter - lineBefore == joins;
  }
}
