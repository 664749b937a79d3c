package io.anteroom.bench.crowd;

import java.util.Map;

/**
 * The burst: new visitors joining one line as fast as the gateway takes them.
 *
 * @param joins the joins and the line before (the opener) and after them
 * @param kinds how they ended
 * @param latencies per join
 * @param order the check of ids, order and positions against Redis
 * @param cpu percent of one core used during the burst by the gateway, Redis and this tool
 * @param firstError the first request failure, or null
 */
record BurstResult(
    ChunkResult joins,
    Map<Answer.Kind, Integer> kinds,
    Latencies latencies,
    OrderCheck order,
    double[] cpu,
    String firstError) {

  int size() {
    return joins.joins();
  }

  int failures() {
    return size() - kinds.get(Answer.Kind.WAITING);
  }

  boolean passed() {
    return failures() == 0
        && joins.lineAfter() - joins.lineBefore() == size()
        && order.passed()
        && order.positionExact() == size();
  }
}
