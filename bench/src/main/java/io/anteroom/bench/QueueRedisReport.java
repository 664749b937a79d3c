package io.anteroom.bench;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/** The results of {@link QueueRedisBench} as Markdown: setup, medians, ratios, verdict, rounds. */
final class QueueRedisReport {

  /** Goal 6: a newcomer's join costs at most this many times EVALSHA of ZADD NX + ZRANK. */
  static final double JOIN_GOAL = 1.2;

  /** Goal 7: a waiting visitor takes at most this many times the memory of one plain member. */
  static final double MEMORY_GOAL = 2.0;

  /** Goal 8: admission costs at most this many times raw ZPOPMIN + ZADD per visitor. */
  static final double ADMIT_GOAL = 1.5;

  /** Goal 8: no admission call holds Redis this long (µs). */
  static final double LONGEST_CALL_GOAL = 1000;

  /**
   * A goal: the median of {@code value} over the rounds is at most {@code limit} (below it when
   * {@code strict}).
   */
  record Goal(
      String number,
      String label,
      ToDoubleFunction<RoundResult> value,
      double limit,
      boolean strict,
      String format) {

    boolean met(double median) {
      return strict ? median < limit : median <= limit;
    }

    String print(double number) {
      return String.format(Locale.ROOT, format, number);
    }

    String target() {
      return (strict ? "< " : "≤ ") + print(limit);
    }
  }

  static final List<Goal> GOALS =
      List.of(
          new Goal(
              "6",
              "join (`join.lua`) ÷ EVALSHA(ZADD NX+ZRANK), µs per enqueue",
              r -> r.joinUsec() / r.scriptedEnqueueUsec(),
              JOIN_GOAL,
              false,
              "%.2f×"),
          new Goal(
              "7",
              "memory per waiting visitor ÷ one plain sorted-set member",
              RoundResult::memoryRatio,
              MEMORY_GOAL,
              false,
              "%.2f×"),
          new Goal(
              "8",
              "admit per visitor ÷ raw ZPOPMIN+ZADD",
              r -> r.admitUsec() / r.rawAdmitUsec(),
              ADMIT_GOAL,
              false,
              "%.2f×"),
          new Goal(
              "8",
              "longest admit call",
              RoundResult::longestAdmitUsec,
              LONGEST_CALL_GOAL,
              true,
              "%.0f µs"));

  /** One figure of a round; {@code format} prints it, e.g. {@code %.2f}. */
  private record Figure(
      String label, String column, ToDoubleFunction<RoundResult> value, String format) {

    Figure(String label, String column, ToDoubleFunction<RoundResult> value) {
      this(label, column, value, "%.2f");
    }

    String print(double number) {
      return String.format(Locale.ROOT, format, number);
    }
  }

  private static final List<Figure> VALUES =
      List.of(
          new Figure("join (`join.lua`), µs per newcomer", "join", RoundResult::joinUsec),
          new Figure(
              "enqueue (`enqueue.lua`, ids that may have been here before), µs per enqueue",
              "enqueue",
              RoundResult::enqueueUsec),
          new Figure(
              "raw `ZADD NX` + `ZRANK`, µs per visitor",
              "raw ZADD+ZRANK",
              RoundResult::rawEnqueueUsec),
          new Figure(
              "EVALSHA of `ZADD NX` + `ZRANK`, µs per visitor",
              "EVALSHA ref",
              RoundResult::scriptedEnqueueUsec),
          new Figure(
              "EVALSHA of a script that only returns (enqueue's 5 keys, 5 args), µs per call",
              "return-only script",
              RoundResult::returnOnlyUsec),
          new Figure(
              "EVALSHA of the four commands a join needs, nothing else (`join_floor.lua`), µs",
              "join floor",
              RoundResult::joinFloorUsec),
          new Figure(
              "admit (`admit.lua`), µs per admitted visitor, trimming seen included",
              "admit/visitor",
              RoundResult::admitUsec),
          new Figure(
              "of which trimming seen once stale (trimming calls less idle calls), µs per visitor",
              "trim/visitor",
              RoundResult::trimUsec),
          new Figure(
              "raw `ZPOPMIN` + `ZADD`, µs per visitor",
              "raw ZPOPMIN+ZADD",
              RoundResult::rawAdmitUsec),
          new Figure(
              "EVALSHA of `ZPOPMIN` + `ZADD`, µs per visitor",
              "EVALSHA admit ref",
              RoundResult::scriptedAdmitUsec),
          new Figure(
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

  private static final List<Figure> RATIOS =
      List.of(
          new Figure(
              "join ÷ EVALSHA(ZADD NX+ZRANK)", "", r -> r.joinUsec() / r.scriptedEnqueueUsec()),
          new Figure(
              "enqueue ÷ EVALSHA(ZADD NX+ZRANK)",
              "",
              r -> r.enqueueUsec() / r.scriptedEnqueueUsec()),
          new Figure(
              "join floor ÷ EVALSHA(ZADD NX+ZRANK)",
              "",
              r -> r.joinFloorUsec() / r.scriptedEnqueueUsec()),
          new Figure("join ÷ join floor", "", r -> r.joinUsec() / r.joinFloorUsec()),
          new Figure("join ÷ raw ZADD+ZRANK", "", r -> r.joinUsec() / r.rawEnqueueUsec()),
          new Figure(
              "admit per visitor ÷ raw ZPOPMIN+ZADD", "", r -> r.admitUsec() / r.rawAdmitUsec()),
          new Figure(
              "admit per visitor, admitting calls only, ÷ raw ZPOPMIN+ZADD",
              "",
              r -> (r.admitUsec() - r.trimUsec()) / r.rawAdmitUsec()),
          new Figure(
              "admit per visitor ÷ EVALSHA(ZPOPMIN+ZADD)",
              "",
              r -> r.admitUsec() / r.scriptedAdmitUsec()),
          new Figure(
              "EVALSHA(ZPOPMIN+ZADD) ÷ raw ZPOPMIN+ZADD",
              "",
              r -> r.scriptedAdmitUsec() / r.rawAdmitUsec()),
          new Figure(
              "admit floor ÷ raw ZPOPMIN+ZADD", "", r -> r.admitFloorUsec() / r.rawAdmitUsec()),
          new Figure("admit ÷ admit floor", "", r -> r.admitUsec() / r.admitFloorUsec()),
          new Figure("memory per waiting visitor ÷ plain member", "", RoundResult::memoryRatio));

  private final BenchOptions options;
  private final MachineInfo machine;
  private final String redisVersion;
  private final OptionalDouble stealPercent;
  private final Instant date;
  private final List<RoundResult> rounds;

  QueueRedisReport(
      BenchOptions options,
      MachineInfo machine,
      String redisVersion,
      OptionalDouble stealPercent,
      Instant date,
      List<RoundResult> rounds) {
    this.options = options;
    this.machine = machine;
    this.redisVersion = redisVersion;
    this.stealPercent = stealPercent;
    this.date = date;
    this.rounds = List.copyOf(rounds);
  }

  /** A console line for one finished round. */
  static String roundLine(RoundResult round) {
    StringBuilder line =
        new StringBuilder(round.round() == 0 ? "warm-up" : "round " + round.round());
    line.append(" (").append(round.order()).append("):");
    VALUES.forEach(f -> line.append(' ').append(f.column()).append('=').append(usec(f, round)));
    return line.toString();
  }

  String markdown() {
    StringBuilder out = new StringBuilder();
    out.append("# Queue model vs raw commands: Redis server time per visitor\n\n");
    out.append(setup()).append('\n');
    out.append(QueueRedisText.METHOD).append('\n');
    out.append("## Results (median of ").append(rounds.size()).append(" rounds)\n\n");
    out.append(summary()).append('\n');
    out.append("## Against the goals\n\n");
    out.append(goals()).append('\n');
    out.append(QueueRedisText.verdict(rounds, options.batch())).append('\n');
    out.append(QueueRedisText.breakdown(rounds, options.batch())).append('\n');
    out.append("## Per round\n\n").append(perRound());
    return out.toString();
  }

  private String setup() {
    String steal =
        stealPercent.isPresent()
            ? String.format(Locale.ROOT, "%.1f%%", stealPercent.getAsDouble())
            : "unknown";
    return "| | |\n|---|---|\n"
        + row("date (UTC)", date.truncatedTo(ChronoUnit.SECONDS).toString())
        + row("command", "`" + options.command() + "`")
        + row(
            "machine",
            "nproc " + machine.processors() + ", " + machine.cpuModel() + ", " + machine.memory())
        + row(
            "host load",
            "load average "
                + machine.loadAverage()
                + " at start; "
                + steal
                + " of CPU time stolen by the host during the run (/proc/stat)")
        + row("redis-server", redisVersion + ", started by the benchmark on a free loopback port")
        + row("Java", machine.java())
        + row(
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
  }

  private static String row(String name, String value) {
    return "| " + name + " | " + value + " |\n";
  }

  private String summary() {
    StringBuilder out = new StringBuilder("| figure | median | min–max |\n|---|---:|---:|\n");
    for (Figure f : VALUES) {
      Spread s = Spread.of(rounds, f.value());
      out.append("| ")
          .append(f.label())
          .append(" | ")
          .append(f.print(s.median()))
          .append(" | ")
          .append(f.print(s.min()))
          .append('–')
          .append(f.print(s.max()))
          .append(" |\n");
    }
    out.append("\n| ratio | median | min–max |\n|---|---:|---:|\n");
    for (Figure f : RATIOS) {
      Spread s = Spread.of(rounds, f.value());
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %.2f× | %.2f–%.2f× |%n",
              f.label(),
              s.median(),
              s.min(),
              s.max()));
    }
    return out.toString();
  }

  private String goals() {
    StringBuilder out =
        new StringBuilder(
            "| goal | figure | median | min–max | target | |\n|---|---|---:|---:|---|---|\n");
    for (Goal g : GOALS) {
      Spread s = Spread.of(rounds, g.value());
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %s | %s–%s | %s | %s |%n",
              g.number(),
              g.label(),
              g.print(s.median()),
              g.print(s.min()),
              g.print(s.max()),
              g.target(),
              g.met(s.median()) ? "met" : "**not met**"));
    }
    return out.toString();
  }

  private String perRound() {
    StringBuilder out = new StringBuilder("| round | order |");
    VALUES.forEach(f -> out.append(' ').append(f.column()).append(" |"));
    RATIOS.forEach(f -> out.append(' ').append(f.label()).append(" |"));
    out.append("\n|---:|---|").append("---:|".repeat(VALUES.size() + RATIOS.size())).append('\n');
    for (RoundResult round : rounds) {
      out.append("| ").append(round.round()).append(" | ").append(round.order()).append(" |");
      VALUES.forEach(f -> out.append(' ').append(usec(f, round)).append(" |"));
      RATIOS.forEach(
          f -> out.append(String.format(Locale.ROOT, " %.2f× |", f.value().applyAsDouble(round))));
      out.append('\n');
    }
    return out.append(
            "\nTimes in µs of server time (INFO commandstats); memory in bytes (INFO memory).\n")
        .toString();
  }

  private static String usec(Figure figure, RoundResult round) {
    return figure.print(figure.value().applyAsDouble(round));
  }
}
