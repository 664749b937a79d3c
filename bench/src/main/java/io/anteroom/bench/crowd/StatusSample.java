package io.anteroom.bench.crowd;

import io.anteroom.queue.QueueId;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * Polls {@code GET /_anteroom/status} with the tickets of some waiting visitors, one after another,
 * and compares each answer with Redis: the position must be ZRANK + 1 and the length of the line
 * ZCARD (nobody moves, so both hold still).
 *
 * @param waitingAnswers answers that were 200 with {@code "state":"waiting"}
 * @param deepest the largest position polled
 * @param latencies each poll's time to answer, in nanoseconds
 */
record StatusSample(
    int polled,
    int waitingAnswers,
    int positionMatches,
    int lengthMatches,
    long deepest,
    long[] latencies) {

  boolean passed() {
    return polled > 0
        && waitingAnswers == polled
        && positionMatches == polled
        && lengthMatches == polled;
  }

  static StatusSample poll(Lines lines, List<String> tickets, RedisLine redis, QueueId queue) {
    List<String> visitors = new ArrayList<>();
    List<String> bodies = new ArrayList<>();
    long[] latencies = new long[tickets.size()];
    for (int i = 0; i < tickets.size(); i++) {
      long start = System.nanoTime();
      HttpResponse<String> answer =
          lines.get(lines.status(), Answer.TICKET_COOKIE + "=" + tickets.get(i));
      latencies[i] = System.nanoTime() - start;
      if (answer != null
          && answer.statusCode() == 200
          && "waiting".equals(Answer.state(answer.body()))) {
        visitors.add(Answer.visitor(tickets.get(i)));
        bodies.add(answer.body());
      }
    }
    long[] ranks = redis.ranks(queue, visitors);
    long length = redis.waiting(queue);
    int positionMatches = 0;
    int lengthMatches = 0;
    long deepest = 0;
    for (int i = 0; i < ranks.length; i++) {
      long position = Answer.number(Answer.POSITION, bodies.get(i));
      positionMatches += ranks[i] >= 0 && position == ranks[i] + 1 ? 1 : 0;
      lengthMatches += Answer.number(Answer.WAITING_COUNT, bodies.get(i)) == length ? 1 : 0;
      deepest = Math.max(deepest, position);
    }
    return new StatusSample(
        tickets.size(), ranks.length, positionMatches, lengthMatches, deepest, latencies);
  }
}
