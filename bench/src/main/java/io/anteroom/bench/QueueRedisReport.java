package io.anteroom.bench;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.ToDoubleFunction;

/** The results of {@link QueueRedisBench} as Markdown: setup, medians, ratios, verdict, rounds. */
final class QueueRedisReport {

  /** The goal: the queue model costs Redis at most this many times its raw reference. */
  static final double GOAL = 1.5;

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
          new Figure(
              "enqueue (`enqueue.lua`), µs per enqueue", "enqueue", RoundResult::enqueueUsec),
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
              "admit (`admit.lua`), µs per admitted visitor",
              "admit/visitor",
              RoundResult::admitUsec),
          new Figure(
              "raw `ZPOPMIN` + `ZADD`, µs per visitor",
              "raw ZPOPMIN+ZADD",
              RoundResult::rawAdmitUsec),
          new Figure(
              "median admit call (one batch), µs",
              "median admit call",
              RoundResult::medianAdmitCallUsec,
              "%.0f"),
          new Figure(
              "longest admit call, µs",
              "longest admit call",
              RoundResult::longestAdmitUsec,
              "%.0f"));

  private static final List<Figure> RATIOS =
      List.of(
          new Figure("enqueue ÷ raw ZADD+ZRANK", "", r -> r.enqueueUsec() / r.rawEnqueueUsec()),
          new Figure(
              "enqueue ÷ EVALSHA(ZADD NX+ZRANK)",
              "",
              r -> r.enqueueUsec() / r.scriptedEnqueueUsec()),
          new Figure(
              "admit per visitor ÷ raw ZPOPMIN+ZADD", "", r -> r.admitUsec() / r.rawAdmitUsec()));

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
    out.append("## Against the goal (≤ ").append(GOAL).append("× raw)\n\n");
    out.append(QueueRedisText.verdict(rounds, GOAL)).append('\n');
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
    out.append("\n| ratio | median | min–max | goal ≤ ")
        .append(GOAL)
        .append("× |\n|---|---:|---:|---|\n");
    for (Figure f : RATIOS) {
      Spread s = Spread.of(rounds, f.value());
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %.2f× | %.2f–%.2f× | %s |%n",
              f.label(),
              s.median(),
              s.min(),
              s.max(),
              s.median() <= GOAL
                  ? "met"
                  : String.format(Locale.ROOT, "not met: %.2f× over the goal", s.median() / GOAL)));
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
    return out.append("\nAll values in µs of server time (INFO commandstats).\n").toString();
  }

  private static String usec(Figure figure, RoundResult round) {
    return figure.print(figure.value().applyAsDouble(round));
  }
}
