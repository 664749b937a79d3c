package io.anteroom.bench;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/** The results of {@link QueueRedisBench} as Markdown: setup, medians, ratios, goals, rounds. */
final class QueueRedisReport {

  /** Goal 6: a newcomer's join costs at most this many times EVALSHA of ZADD NX + ZRANK. */
  static final double JOIN_GOAL = 1.2;

  /** Goal 7: a waiting visitor takes at most this many times the memory of one plain member. */
  static final double MEMORY_GOAL = 2.0;

  /** Goal 8: admission costs at most this many times raw ZPOPMIN + ZADD per visitor. */
  static final double ADMIT_GOAL = 1.5;

  /** Goal 8: no admission call holds Redis this long (µs). */
  static final double LONGEST_CALL_GOAL = 1000;

  /** One figure of a round, printed with {@code format}; {@code column} heads it per round. */
  private record Figure(
      String label, String column, ToDoubleFunction<RoundResult> value, String format) {

    String print(double number) {
      return Markdown.f(format, number);
    }

    String print(RoundResult round) {
      return print(value.applyAsDouble(round));
    }
  }

  /** A goal: the median of the figure over the rounds is at most the limit (below if strict). */
  private record Goal(String number, Figure figure, double limit, boolean strict) {

    boolean met(double median) {
      return strict ? median < limit : median <= limit;
    }
  }

  private static final List<Figure> VALUES =
      List.of(
          usec("join (`join.lua`), µs per newcomer", "join", RoundResult::joinUsec),
          usec(
              "enqueue (`enqueue.lua`, ids that may have been here before), µs per enqueue",
              "enqueue",
              RoundResult::enqueueUsec),
          usec(
              "raw `ZADD NX` + `ZRANK`, µs per visitor",
              "raw ZADD+ZRANK",
              RoundResult::rawEnqueueUsec),
          usec(
              "EVALSHA of `ZADD NX` + `ZRANK`, µs per visitor",
              "EVALSHA ref",
              RoundResult::scriptedEnqueueUsec),
          usec(
              "EVALSHA of a script that only returns (enqueue's 5 keys, 5 args), µs per call",
              "return-only script",
              RoundResult::returnOnlyUsec),
          usec(
              "EVALSHA of the four commands a join needs, nothing else (`join_floor.lua`), µs",
              "join floor",
              RoundResult::joinFloorUsec),
          usec(
              "admit (`admit.lua`), µs per admitted visitor, trimming seen included",
              "admit/visitor",
              RoundResult::admitUsec),
          usec(
              "of which trimming seen once stale (trimming calls less idle calls), µs per visitor",
              "trim/visitor",
              RoundResult::trimUsec),
          usec(
              "raw `ZPOPMIN` + `ZADD`, µs per visitor",
              "raw ZPOPMIN+ZADD",
              RoundResult::rawAdmitUsec),
          usec(
              "EVALSHA of `ZPOPMIN` + `ZADD`, µs per visitor",
              "EVALSHA admit ref",
              RoundResult::scriptedAdmitUsec),
          usec(
              "EVALSHA of what admission with abandonment needs (`admit_floor.lua`), µs per"
                  + " visitor",
              "admit floor",
              RoundResult::admitFloorUsec),
          new Figure(
              "median admit call (one batch), µs",
              "median admit call",
              RoundResult::medianAdmitCallUsec,
              "%.0f"),
          new Figure(
              "longest admit call, µs",
              "longest admit call",
              RoundResult::longestAdmitUsec,
              "%.0f"),
          new Figure(
              "memory per waiting visitor (`used_memory` growth ÷ visitors), bytes",
              "bytes/waiting",
              RoundResult::waitingBytes,
              "%.1f"),
          new Figure(
              "memory per plain sorted-set member of the same id, bytes",
              "bytes/member",
              RoundResult::memberBytes,
              "%.1f"));

  private static final Figure JOIN_RATIO =
      ratio("join ÷ EVALSHA(ZADD NX+ZRANK)", r -> r.joinUsec() / r.scriptedEnqueueUsec());
  private static final Figure ADMIT_RATIO =
      ratio("admit per visitor ÷ raw ZPOPMIN+ZADD", r -> r.admitUsec() / r.rawAdmitUsec());
  private static final Figure MEMORY_RATIO =
      ratio("memory per waiting visitor ÷ plain member", RoundResult::memoryRatio);

  private static final List<Figure> RATIOS =
      List.of(
          JOIN_RATIO,
          ratio("enqueue ÷ EVALSHA(ZADD NX+ZRANK)", r -> r.enqueueUsec() / r.scriptedEnqueueUsec()),
          ratio(
              "join floor ÷ EVALSHA(ZADD NX+ZRANK)",
              r -> r.joinFloorUsec() / r.scriptedEnqueueUsec()),
          ratio("join ÷ join floor", r -> r.joinUsec() / r.joinFloorUsec()),
          ratio("join ÷ raw ZADD+ZRANK", r -> r.joinUsec() / r.rawEnqueueUsec()),
          ADMIT_RATIO,
          ratio(
              "admit per visitor, admitting calls only, ÷ raw ZPOPMIN+ZADD",
              r -> (r.admitUsec() - r.trimUsec()) / r.rawAdmitUsec()),
          ratio(
              "admit per visitor ÷ EVALSHA(ZPOPMIN+ZADD)",
              r -> r.admitUsec() / r.scriptedAdmitUsec()),
          ratio(
              "EVALSHA(ZPOPMIN+ZADD) ÷ raw ZPOPMIN+ZADD",
              r -> r.scriptedAdmitUsec() / r.rawAdmitUsec()),
          ratio("admit floor ÷ raw ZPOPMIN+ZADD", r -> r.admitFloorUsec() / r.rawAdmitUsec()),
          ratio("admit ÷ admit floor", r -> r.admitUsec() / r.admitFloorUsec()),
          MEMORY_RATIO);

  private static final List<Goal> GOALS =
      List.of(
          new Goal(
              "6",
              new Figure(
                  "join (`join.lua`) ÷ EVALSHA(ZADD NX+ZRANK), µs per enqueue",
                  "",
                  JOIN_RATIO.value(),
                  "%.2f×"),
              JOIN_GOAL,
              false),
          new Goal(
              "7",
              new Figure(
                  "memory per waiting visitor ÷ one plain sorted-set member",
                  "",
                  MEMORY_RATIO.value(),
                  "%.2f×"),
              MEMORY_GOAL,
              false),
          new Goal("8", ADMIT_RATIO, ADMIT_GOAL, false),
          new Goal(
              "8",
              new Figure("longest admit call", "", RoundResult::longestAdmitUsec, "%.0f µs"),
              LONGEST_CALL_GOAL,
              true));

  private final QueueRedisOptions options;
  private final String loadAverage;
  private final String redisVersion;
  private final double stealPercent;
  private final List<RoundResult> rounds;
  private final Markdown md = new Markdown();

  QueueRedisReport(
      QueueRedisOptions options,
      String loadAverage,
      String redisVersion,
      double stealPercent,
      List<RoundResult> rounds) {
    this.options = options;
    this.loadAverage = loadAverage;
    this.redisVersion = redisVersion;
    this.stealPercent = stealPercent;
    this.rounds = List.copyOf(rounds);
  }

  /** A console line for one finished round. */
  static String roundLine(RoundResult round) {
    StringBuilder line =
        new StringBuilder(round.round() == 0 ? "warm-up" : "round " + round.round());
    line.append(" (").append(round.order()).append("):");
    VALUES.forEach(f -> line.append(' ').append(f.column()).append('=').append(f.print(round)));
    return line.toString();
  }

  String markdown() {
    md.line("# Queue model vs raw commands: Redis server time per visitor\n");
    md.line("| | |\n|---|---|");
    md.row("date (UTC)", Instant.now().truncatedTo(ChronoUnit.SECONDS));
    md.row("command", "`" + Args.command() + "`");
    md.row("machine", Machine.description());
    md.row(
        "host load",
        "load average "
            + loadAverage
            + " at start; "
            + (Double.isNaN(stealPercent) ? "unknown" : Markdown.f("%.1f%%", stealPercent))
            + " of CPU time stolen by the host during the run (/proc/stat)");
    md.row("redis-server", redisVersion + ", started by the benchmark on a free loopback port");
    md.row("Java", Machine.java());
    md.row(
        "workload",
        String.format(
            Locale.ROOT,
            "%d rounds after %d discarded warm-up; %d visitors per phase; admit batch %d;"
                + " enqueue slices of %d visitors; %d commands in flight",
            options.rounds(),
            options.warmup(),
            options.visitors(),
            options.batch(),
            options.slice(),
            options.inFlight()));
    md.line("\n" + QueueRedisText.METHOD);
    md.line("## Results (median of %d rounds)\n", rounds.size());
    md.line("| figure | median | min–max |\n|---|---:|---:|");
    for (Figure f : VALUES) {
      Spread s = Spread.of(rounds, f.value());
      md.row(f.label(), f.print(s.median()), f.print(s.min()) + "–" + f.print(s.max()));
    }
    md.line("\n| ratio | median | min–max |\n|---|---:|---:|");
    for (Figure f : RATIOS) {
      Spread s = Spread.of(rounds, f.value());
      md.row(f.label(), f.print(s.median()), Markdown.f("%.2f–", s.min()) + f.print(s.max()));
    }
    md.line("\n## Against the goals\n");
    md.line("| goal | figure | median | min–max | target | |\n|---|---|---:|---:|---|---|");
    for (Goal g : GOALS) {
      Spread s = Spread.of(rounds, g.figure().value());
      md.row(
          g.number(),
          g.figure().label(),
          g.figure().print(s.median()),
          g.figure().print(s.min()) + "–" + g.figure().print(s.max()),
          (g.strict() ? "< " : "≤ ") + g.figure().print(g.limit()),
          g.met(s.median()) ? "met" : "**not met**");
    }
    md.line("\n" + QueueRedisText.verdict(rounds, options.batch()));
    md.line(QueueRedisText.breakdown(rounds, options.batch()));
    md.line("## Per round\n");
    md.line(
        "| round | order |%s\n|---:|---|%s",
        String.join("", VALUES.stream().map(f -> " " + f.column() + " |").toList())
            + String.join("", RATIOS.stream().map(f -> " " + f.label() + " |").toList()),
        "---:|".repeat(VALUES.size() + RATIOS.size()));
    for (RoundResult round : rounds) {
      md.row(
          round.round() + " | " + round.order(),
          String.join(
              " | ",
              Stream.concat(VALUES.stream(), RATIOS.stream()).map(f -> f.print(round)).toList()));
    }
    return md.line(
            "\nTimes in µs of server time (INFO commandstats); memory in bytes (INFO memory).")
        .toString();
  }

  private static Figure usec(String label, String column, ToDoubleFunction<RoundResult> value) {
    return new Figure(label, column, value, "%.2f");
  }

  private static Figure ratio(String label, ToDoubleFunction<RoundResult> value) {
    return new Figure(label, label, value, "%.2f×");
  }
}
