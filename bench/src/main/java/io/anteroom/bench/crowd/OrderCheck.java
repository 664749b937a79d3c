package io.anteroom.bench.crowd;

import io.lettuce.core.ScoredValue;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * Checks a burst of joins against the line Redis holds afterwards ({@code ZRANGE … WITHSCORES} of
 * the whole waiting set; nobody leaves, so ranks do not move).
 *
 * <p>Order kept: whenever A's answer arrived before B's request was sent, A must have the lower
 * score. Sweeping the requests by send time while keeping the highest score among the answers
 * received before each send checks every such pair in O(n log n).
 *
 * @param waitingAnswers joins answered as waiting with a ticket
 * @param distinctVisitors distinct visitor ids among them
 * @param missing visitors answered as waiting but absent from the line
 * @param constrained joins sent after at least one waiting answer had arrived
 * @param outOfOrder joins whose score was not above every score answered before they were sent
 * @param positionExact answers whose position was exactly the final rank + 1
 * @param positionAbove answers whose position was above the final rank + 1 (impossible when nobody
 *     leaves)
 */
record OrderCheck(
    int waitingAnswers,
    int distinctVisitors,
    int missing,
    int constrained,
    int outOfOrder,
    int positionExact,
    int positionAbove) {

  boolean passed() {
    return distinctVisitors == waitingAnswers
        && missing == 0
        && outOfOrder == 0
        && positionAbove == 0;
  }

  static OrderCheck of(JoinLog log, List<ScoredValue<String>> line) {
    Map<String, Integer> rank = new HashMap<>(line.size() * 2);
    Map<String, Double> score = new HashMap<>(line.size() * 2);
    for (int r = 0; r < line.size(); r++) {
      rank.put(line.get(r).getValue(), r);
      score.put(line.get(r).getValue(), line.get(r).getScore());
    }
    int[] waiting = IntStream.range(0, log.size()).filter(log::waiting).toArray();
    Set<String> distinct = new HashSet<>(waiting.length * 2);
    double[] scores = new double[log.size()];
    int missing = 0;
    int exact = 0;
    int above = 0;
    for (int i : waiting) {
      String visitor = log.answers[i].visitor();
      distinct.add(visitor);
      Integer r = rank.get(visitor);
      if (r == null) {
        missing++;
        scores[i] = Double.NaN;
        continue;
      }
      scores[i] = score.get(visitor);
      if (log.answers[i].position() == r + 1) {
        exact++;
      } else if (log.answers[i].position() > r + 1) {
        above++;
      }
    }
    int[] sweep = sweep(log, waiting, scores);
    return new OrderCheck(
        waiting.length, distinct.size(), missing, sweep[0], sweep[1], exact, above);
  }

  /** {constrained, out of order} over the waiting answers present in the line. */
  private static int[] sweep(JoinLog log, int[] waiting, double[] scores) {
    int[] present = Arrays.stream(waiting).filter(i -> !Double.isNaN(scores[i])).toArray();
    Integer[] bySend = Arrays.stream(present).boxed().toArray(Integer[]::new);
    Integer[] byAnswer = bySend.clone();
    Arrays.sort(bySend, (a, b) -> Long.compare(log.sent[a], log.sent[b]));
    Arrays.sort(byAnswer, (a, b) -> Long.compare(log.answered[a], log.answered[b]));
    double highest = Double.NEGATIVE_INFINITY;
    int next = 0;
    int constrained = 0;
    int outOfOrder = 0;
    for (int b : bySend) {
      while (next < byAnswer.length && log.answered[byAnswer[next]] < log.sent[b]) {
        highest = Math.max(highest, scores[byAnswer[next]]);
        next++;
      }
      if (next > 0) {
        constrained++;
        if (scores[b] <= highest) {
          outOfOrder++;
        }
      }
    }
    return new int[] {constrained, outOfOrder};
  }
}
