package io.anteroom.bench.crowd;

import java.util.Map;

/**
 * The burst: new visitors joining one line as fast as the gateway takes them.
 *
 * @param size joins sent
 * @param kinds how they ended
 * @param otherStatuses statuses of the answers that were not waiting answers
 * @param seconds from the first request to the last answer
 * @param latencies per join
 * @param lineBefore people in line before the burst (the opener)
 * @param lineAfter people in line after it (ZCARD)
 * @param order the check of ids, order and positions against Redis
 * @param cpu percent of one core used during the burst by the gateway, Redis and this tool
 * @param firstError the first request failure, or null
 */
record BurstResult(
    int size,
    Map<Answer.Kind, Integer> kinds,
    String otherStatuses,
    double seconds,
    Latencies latencies,
    long lineBefore,
    long lineAfter,
    OrderCheck order,
    double[] cpu,
    String firstError) {

  double perSecond() {
    return seconds > 0 ? size / seconds : 0;
  }

  int failures() {
    return size - kinds.get(Answer.Kind.WAITING);
  }

  boolean enqueuedAll() {
    return failures() == 0 && lineAfter - lineBefore == size;
  }

  boolean passed() {
    return enqueuedAll() && order.passed() && order.positionExact() == size;
  }
}
