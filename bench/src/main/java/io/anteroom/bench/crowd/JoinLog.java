package io.anteroom.bench.crowd;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every join of one phase, by request index: when it was sent and answered ({@link
 * System#nanoTime()}), how it ended, the position and the visitor id. Tickets are kept for every
 * {@code ticketEvery}-th request only, for the status polls at the end. Each index is written by
 * one completion only, and read after all of them.
 */
final class JoinLog {

  final long[] sent;
  final long[] answered;
  final Answer[] answers;
  private final int ticketEvery;
  private String firstError;

  JoinLog(int size, int ticketEvery) {
    this.sent = new long[size];
    this.answered = new long[size];
    this.answers = new Answer[size];
    this.ticketEvery = ticketEvery;
  }

  int size() {
    return sent.length;
  }

  void record(int i, long answeredAt, Answer answer) {
    answered[i] = answeredAt;
    answers[i] = answer;
  }

  boolean waiting(int i) {
    return answers[i] != null && answers[i].kind() == Answer.Kind.WAITING;
  }

  /** Keeps the first request failure of the phase. */
  void noteFailure(String failure) {
    firstError = firstError == null ? failure : firstError;
  }

  /** The first request failure of the phase, or null. */
  String firstError() {
    return firstError;
  }

  /** How many requests ended each way. */
  Map<Answer.Kind, Integer> counts() {
    Map<Answer.Kind, Integer> counts = new EnumMap<>(Answer.Kind.class);
    for (Answer.Kind kind : Answer.Kind.values()) {
      counts.put(kind, 0);
    }
    Arrays.stream(answers).forEach(a -> counts.merge(a.kind(), 1, Integer::sum));
    return counts;
  }

  /** HTTP statuses of the answers that were not waiting answers, e.g. "503 ×12", or "none". */
  String otherStatuses() {
    Map<Integer, Integer> counts = new TreeMap<>();
    for (int i = 0; i < size(); i++) {
      if (!waiting(i)) {
        counts.merge(answers[i].status(), 1, Integer::sum);
      }
    }
    List<String> parts = new ArrayList<>();
    counts.forEach((status, n) -> parts.add((status == 0 ? "none" : status) + " ×" + n));
    return parts.isEmpty() ? "none" : String.join(", ", parts);
  }

  /** Tickets of every {@code ticketEvery}-th visitor, when answered as waiting. */
  List<String> keptTickets() {
    List<String> kept = new ArrayList<>();
    for (int i = 0; ticketEvery > 0 && i < size(); i += ticketEvery) {
      if (waiting(i) && answers[i].ticket() != null) {
        kept.add(answers[i].ticket());
      }
    }
    return kept;
  }

  /** Seconds from the first request sent to the last answer. */
  double seconds() {
    long first = Arrays.stream(sent).min().orElse(0);
    return (Arrays.stream(answered).max().orElse(0) - first) / 1e9;
  }

  /** Answer times minus send times, in nanoseconds, unsorted. */
  long[] latencies() {
    long[] latencies = new long[size()];
    Arrays.setAll(latencies, i -> answered[i] - sent[i]);
    return latencies;
  }

  /** p50, p99 and max of request times in nanoseconds, in milliseconds, nearest rank. */
  static double[] percentiles(long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    double[] ms = new double[3];
    double[] ranks = {0.50, 0.99, 1};
    for (int p = 0; p < 3 && sorted.length > 0; p++) {
      int index =
          Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(ranks[p] * sorted.length) - 1));
      ms[p] = sorted[index] / 1e6;
    }
    return ms;
  }
}
