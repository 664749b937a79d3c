package io.anteroom.bench.crowd;

import java.util.ArrayList;
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
  final Answer.Kind[] kinds;
  final int[] statuses;
  final long[] positions;
  final String[] visitors;
  private final int ticketEvery;
  private final String[] tickets;
  private String firstError;

  JoinLog(int size, int ticketEvery) {
    this.sent = new long[size];
    this.answered = new long[size];
    this.kinds = new Answer.Kind[size];
    this.statuses = new int[size];
    this.positions = new long[size];
    this.visitors = new String[size];
    this.ticketEvery = ticketEvery;
    this.tickets = new String[ticketEvery > 0 ? (size + ticketEvery - 1) / ticketEvery : 0];
  }

  int size() {
    return sent.length;
  }

  void record(int i, long answeredAt, Answer answer) {
    answered[i] = answeredAt;
    kinds[i] = answer.kind();
    statuses[i] = answer.status();
    positions[i] = answer.position();
    visitors[i] = answer.visitor();
    if (ticketEvery > 0 && i % ticketEvery == 0) {
      tickets[i / ticketEvery] = answer.ticket();
    }
  }

  /** Keeps the first request failure of the phase. */
  void noteFailure(String failure) {
    if (firstError == null) {
      firstError = failure;
    }
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
    for (Answer.Kind kind : kinds) {
      counts.merge(kind, 1, Integer::sum);
    }
    return counts;
  }

  int waiting() {
    return counts().get(Answer.Kind.WAITING);
  }

  /** HTTP statuses of the answers that were not waiting answers, e.g. "503 ×12". */
  String otherStatuses() {
    Map<Integer, Integer> counts = new TreeMap<>();
    for (int i = 0; i < kinds.length; i++) {
      if (kinds[i] != Answer.Kind.WAITING) {
        counts.merge(statuses[i], 1, Integer::sum);
      }
    }
    List<String> parts = new ArrayList<>();
    counts.forEach((status, n) -> parts.add((status == 0 ? "none" : status) + " ×" + n));
    return parts.isEmpty() ? "none" : String.join(", ", parts);
  }

  /** Kept tickets of visitors who were answered as waiting. */
  List<String> keptTickets() {
    List<String> kept = new ArrayList<>();
    for (int t = 0; t < tickets.length; t++) {
      if (tickets[t] != null && kinds[t * ticketEvery] == Answer.Kind.WAITING) {
        kept.add(tickets[t]);
      }
    }
    return kept;
  }

  /** Seconds from the first request sent to the last answer. */
  double seconds() {
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (int i = 0; i < sent.length; i++) {
      first = Math.min(first, sent[i]);
      last = Math.max(last, answered[i]);
    }
    return sent.length == 0 ? 0 : (last - first) / 1e9;
  }

  /** Answer times minus send times, in nanoseconds, unsorted. */
  long[] latencies() {
    long[] latencies = new long[sent.length];
    for (int i = 0; i < sent.length; i++) {
      latencies[i] = answered[i] - sent[i];
    }
    return latencies;
  }
}
