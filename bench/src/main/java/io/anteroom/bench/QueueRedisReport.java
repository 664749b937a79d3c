package io.anteroom.bench;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * The results of {@link QueueRedisBench} as Markdown: setup, medians, ratios, goals and their
 * verdicts, where the time goes command by command, and every round.
 */
final class QueueRedisReport {

  static final double JOIN_GOAL = 1.2; // goal 6: join ≤ 1.2 × EVALSHA of ZADD NX + ZRANK
  static final double MEMORY_GOAL = 2.0; // goal 7: a waiting visitor ≤ 2 × one plain member
  static final double ADMIT_GOAL = 1.5; // goal 8: admission ≤ 1.5 × raw ZPOPMIN + ZADD
  static final double LONGEST_CALL_GOAL = 1000; // goal 8: no admission call holds Redis 1 ms
  // Room-wide limits: admitting across a room's queues ≤ 1.2 × one queue's admission per visitor,
  // and its calls, like the one queue's, under LONGEST_CALL_GOAL.
  static final double ROOM_ADMIT_GOAL = 1.2;
  // The model's logic: join ≤ 1.2 × the commands join.lua runs, admission ≤ 1.05 × the commands
  // admit.lua runs, each as a script with no logic between them (join_commands.lua,
  // admit_commands.lua).
  static final double JOIN_LOGIC_GOAL = 1.2;
  static final double ADMIT_LOGIC_GOAL = 1.05;
  private static final String OVERHEAD = "Lua + EVALSHA itself";

  /**
   * A figure of every round: value {@code column} (see {@link #value}), or with {@code under} the
   * quotient of two values in the same round.
   */
  private record Figure(String label, String column, String format, String under) {

    double of(Round round) {
      return under == null ? value(column, round) : value(column, round) / value(under, round);
    }

    String print(double number) {
      return Markdown.f(format, number);
    }

    /** The figure's heading in the table of rounds. */
    String heading() {
      return under == null ? column : label;
    }
  }

  /** Column | format | label of each figure, in the order the results show them. */
  private static final List<Figure> VALUES =
      figures(
          """
          join | %.2f | join (`join.lua`), µs per newcomer
          enqueue | %.2f | enqueue (`enqueue.lua`, ids that may have been here before), µs per enqueue
          raw ZADD+ZRANK | %.2f | raw `ZADD NX` + `ZRANK`, µs per visitor
          EVALSHA ref | %.2f | EVALSHA of `ZADD NX` + `ZRANK`, µs per visitor
          return-only script | %.2f | EVALSHA of a script that only returns (enqueue's 5 keys, 5 args), µs per call
          join floor | %.2f | EVALSHA of the four commands a join needs, nothing else (`join_floor.lua`), µs
          join commands | %.2f | EVALSHA of the eight commands `join.lua` runs for a newcomer, no logic (`join_commands.lua`), µs
          admit/visitor | %.2f | admit (`admit.lua`), µs per admitted visitor, trimming seen included
          trim/visitor | %.2f | of which trimming seen once stale (trimming calls less idle calls), µs per visitor
          raw ZPOPMIN+ZADD | %.2f | raw `ZPOPMIN` + `ZADD`, µs per visitor
          EVALSHA admit ref | %.2f | EVALSHA of `ZPOPMIN` + `ZADD`, µs per visitor
          admit floor | %.2f | EVALSHA of what admission with abandonment needs (`admit_floor.lua`), µs per visitor
          admit call/visitor | %.2f | admit (`admit.lua`), the calls that admitted alone, µs per admitted visitor
          admit commands | %.2f | EVALSHA of the commands `admit.lua` runs in a call that admits, no logic (`admit_commands.lua`), µs per visitor
          median admit call | %.0f | median admit call (one batch), µs
          longest admit call | %.0f | longest admit call, µs
          room admit/visitor | %.2f | room admission (`room_admit.lua`, one room, 3 queues), µs per admitted visitor, trimming seen included
          room trim/visitor | %.2f | of which trimming seen once stale (trimming calls less idle calls), µs per visitor
          median room admit call | %.0f | median room admission call (one batch over 3 queues), µs
          longest room admit call | %.0f | longest room admission call, µs
          median growing admit call | %.0f | median admit call while running grows (sessions never end), µs
          longest growing admit call | %.0f | longest admit call while running grows (sessions never end), µs
          running before longest growing call | %.0f | members in running before that longest call
          bytes/waiting | %.1f | memory per waiting visitor (`used_memory` growth ÷ visitors), bytes
          bytes/member | %.1f | memory per plain sorted-set member of the same id, bytes
          """,
          false);

  /** Numerator | denominator | label of each ratio. */
  private static final List<Figure> RATIOS =
      figures(
          """
          join | EVALSHA ref | join ÷ EVALSHA(ZADD NX+ZRANK)
          enqueue | EVALSHA ref | enqueue ÷ EVALSHA(ZADD NX+ZRANK)
          join floor | EVALSHA ref | join floor ÷ EVALSHA(ZADD NX+ZRANK)
          join | join floor | join ÷ join floor
          join | join commands | join ÷ join's commands
          join | raw ZADD+ZRANK | join ÷ raw ZADD+ZRANK
          admit/visitor | raw ZPOPMIN+ZADD | admit per visitor ÷ raw ZPOPMIN+ZADD
          admitting/visitor | raw ZPOPMIN+ZADD | admit per visitor, admitting calls only, ÷ raw ZPOPMIN+ZADD
          admit/visitor | EVALSHA admit ref | admit per visitor ÷ EVALSHA(ZPOPMIN+ZADD)
          EVALSHA admit ref | raw ZPOPMIN+ZADD | EVALSHA(ZPOPMIN+ZADD) ÷ raw ZPOPMIN+ZADD
          admit floor | raw ZPOPMIN+ZADD | admit floor ÷ raw ZPOPMIN+ZADD
          admit/visitor | admit floor | admit ÷ admit floor
          admit call/visitor | admit commands | admit's admitting calls ÷ admit's commands, per visitor
          room admit/visitor | admit/visitor | room admission ÷ one queue's admission, per admitted visitor
          room admit/visitor | raw ZPOPMIN+ZADD | room admission per visitor ÷ raw ZPOPMIN+ZADD
          bytes/waiting | bytes/member | memory per waiting visitor ÷ plain member
          """,
          true);

  final List<Round> rounds;

  QueueRedisReport(List<Round> rounds) {
    this.rounds = List.copyOf(rounds);
  }

  static double value(String column, Round r) {
    return switch (column) {
      case "join", "enqueue" -> r.script(column);
      case "raw ZADD+ZRANK" -> r.rawEnqueueUsec();
      case "EVALSHA ref" -> r.script("scriptedEnqueue");
      case "return-only script" -> r.script("returnOnly");
      case "join floor" -> r.script("joinFloor");
      case "join commands" -> r.script("joinCommands");
      case "admit/visitor" -> r.admitUsec();
      case "trim/visitor" -> r.trimUsec();
      case "admitting/visitor" -> r.admitUsec() - r.trimUsec();
      case "admit call/visitor" -> r.script("admit");
      case "raw ZPOPMIN+ZADD" -> r.rawAdmitUsec();
      case "EVALSHA admit ref" -> r.script("scriptedAdmit");
      case "admit floor" -> r.script("admitFloor");
      case "admit commands" -> r.script("admitCommands");
      case "median admit call" -> r.phase("admit").medianSliceUsec();
      case "longest admit call" -> r.longestAdmitUsec();
      case "room admit/visitor" -> r.roomAdmitUsec();
      case "room trim/visitor" -> r.roomTrimUsec();
      case "median room admit call" -> r.phase("roomAdmit").medianSliceUsec();
      case "longest room admit call" -> r.longestRoomAdmitUsec();
      case "median growing admit call" -> r.phase("admitGrowing").medianSliceUsec();
      case "longest growing admit call" -> r.phase("admitGrowing").longestSliceUsec();
      case "running before longest growing call" ->
          (double) r.phase("admitGrowing").longestSliceIndex() * Run.number("batch");
      case "bytes/waiting" -> r.waitingBytes();
      case "bytes/member" -> r.memberBytes();
      default -> throw new IllegalArgumentException(column);
    };
  }

  /** A console line for one finished round. */
  static String roundLine(Round round) {
    StringBuilder line =
        new StringBuilder(round.number() == 0 ? "warm-up" : "round " + round.number());
    line.append(" (").append(round.order()).append("):");
    VALUES.forEach(
        f -> line.append(' ').append(f.column()).append('=').append(f.print(f.of(round))));
    return line.toString();
  }

  String markdown(String load, String redisVersion, double steal, String workload) {
    Markdown md = new Markdown();
    md.line("# Queue model vs raw commands: Redis server time per visitor\n");
    md.line("| | |\n|---|---|");
    md.row("date (UTC)", Instant.now().truncatedTo(ChronoUnit.SECONDS));
    md.row("command", "`" + Run.command() + "`");
    md.row("machine", Run.machine());
    String stolen = Double.isNaN(steal) ? "unknown" : Markdown.f("%.1f%%", steal);
    md.line(
        "| host load | load average %s at start; %s of CPU time stolen by the host during the run (/proc/stat) |",
        load, stolen);
    md.row("redis-server", redisVersion + ", started by the benchmark on a free loopback port");
    md.row("Java", Run.java());
    md.row("workload", workload);
    md.line("\n" + QueueRedisMethod.TEXT);
    md.line("## Results (median of %d rounds)\n", rounds.size());
    md.line("| figure | median | min–max |\n|---|---:|---:|");
    for (Figure f : VALUES) {
      Spread s = Spread.of(rounds, f::of);
      md.row(f.label(), f.print(s.median()), f.print(s.min()) + "–" + f.print(s.max()));
    }
    md.line("\n| ratio | median | min–max |\n|---|---:|---:|");
    for (Figure f : RATIOS) {
      Spread s = Spread.of(rounds, f::of);
      md.row(f.label(), f.print(s.median()), Markdown.f("%.2f–", s.min()) + f.print(s.max()));
    }
    md.line("\n## Against the goals\n");
    md.line("| goal | figure | median | min–max | target | |\n|---|---|---:|---:|---|---|");
    String join = "join (`join.lua`) ÷ EVALSHA(ZADD NX+ZRANK), µs per enqueue";
    goal(md, "6", new Figure(join, "join", "%.2f×", "EVALSHA ref"), JOIN_GOAL, false);
    String memory = "memory per waiting visitor ÷ one plain sorted-set member";
    goal(md, "7", new Figure(memory, "bytes/waiting", "%.2f×", "bytes/member"), MEMORY_GOAL, false);
    goal(md, "8", ratio("admit/visitor", "raw ZPOPMIN+ZADD"), ADMIT_GOAL, false);
    Figure longest = new Figure("longest admit call", "longest admit call", "%.0f µs", null);
    goal(md, "8", longest, LONGEST_CALL_GOAL, true);
    goal(md, "room", ratio("room admit/visitor", "admit/visitor"), ROOM_ADMIT_GOAL, false);
    Figure roomLongest =
        new Figure("longest room admission call", "longest room admit call", "%.0f µs", null);
    goal(md, "room", roomLongest, LONGEST_CALL_GOAL, true);
    goal(md, "logic", ratio("join", "join commands"), JOIN_LOGIC_GOAL, false);
    goal(md, "logic", ratio("admit call/visitor", "admit commands"), ADMIT_LOGIC_GOAL, false);
    md.line("");
    new QueueRedisVerdicts(this).write(md);
    breakdown(md);
    md.line("## Per round\n");
    List<Figure> all = Stream.concat(VALUES.stream(), RATIOS.stream()).toList();
    md.line(
        "| round | order |%s\n|---:|---|%s",
        String.join("", all.stream().map(f -> " " + f.heading() + " |").toList()),
        "---:|".repeat(all.size()));
    for (Round r : rounds) {
      String cells = String.join(" | ", all.stream().map(f -> f.print(f.of(r))).toList());
      md.row(r.number() + " | " + r.order(), cells);
    }
    return md.line(
            "\nTimes in µs of server time (INFO commandstats); memory in bytes (INFO memory).")
        .toString();
  }

  /** A goal's row: met when the median over the rounds is at most the limit (below if strict). */
  private void goal(Markdown md, String number, Figure f, double limit, boolean strict) {
    Spread s = Spread.of(rounds, f::of);
    boolean met = strict ? s.median() < limit : s.median() <= limit;
    String range = f.print(s.min()) + "–" + f.print(s.max());
    String target = (strict ? "< " : "≤ ") + f.print(limit);
    md.row(number, f.label(), f.print(s.median()), range, target, met ? "met" : "**not met**");
  }

  private void breakdown(Markdown md) {
    md.line("## Where the time goes\n");
    md.line(
        "Median µs per operation of each command the server ran, with (calls per operation). \""
            + OVERHEAD
            + "\" is the script's EVALSHA time minus the commands it ran: the Lua code between the"
            + " calls, converting replies to Lua values and back, and the EVALSHA call itself.\n");
    table(
        md,
        "per enqueue | `join.lua` | `enqueue.lua` | EVALSHA ref | return-only script | join floor"
            + " | join's commands | raw",
        List.of(
            "join",
            "enqueue",
            "scriptedEnqueue",
            "returnOnly",
            "joinFloor",
            "joinCommands",
            "rawEnqueue"));
    md.line("");
    md.line(
        "The admission columns cover the admitting calls; the calls trimming seen later are in"
            + " the figures above.\n");
    table(
        md,
        "per admitted visitor | `admit.lua` | `room_admit.lua` | EVALSHA admit ref | admit floor"
            + " | admit's commands | raw",
        List.of("admit", "roomAdmit", "scriptedAdmit", "admitFloor", "admitCommands", "rawAdmit"));
    int batch = Run.number("batch");
    md.line(
        "\nA command run once per batch of %d shows as %s calls per visitor.\n",
        batch, calls(1.0 / batch));
  }

  /** µs per operation and (calls per operation) of each command, a column per phase. */
  private void table(Markdown md, String heads, List<String> phases) {
    md.line("| " + heads + " |\n|---|" + "---:|".repeat(phases.size()));
    for (String command : commands(phases)) {
      StringBuilder row = new StringBuilder("| " + command.toUpperCase(Locale.ROOT) + " |");
      for (String phase : phases) {
        double calls = median(r -> callsPer(r.phase(phase), command));
        String usec = usec(median(r -> r.phase(phase).usecPer(command)));
        row.append(' ').append(calls == 0 ? "–" : usec + " (" + calls(calls) + ")").append(" |");
      }
      md.line(row.toString());
    }
    StringBuilder overhead = new StringBuilder("| " + OVERHEAD + " |");
    StringBuilder total = new StringBuilder("| **total** |");
    for (String phase : phases) {
      overhead.append(' ').append(script(phase) ? usec(overhead(phase)) : "–").append(" |");
      total.append(" **").append(usec(median(r -> r.phase(phase).totalPer()))).append("** |");
    }
    md.line(overhead.toString()).line(total.toString());
  }

  /**
   * What phase {@code model} spends beyond phase {@code reference}, largest first, for example
   * {@code ZADD +0.90 µs (2 vs 1 calls)}; only the commands and overhead that cost more.
   */
  String differences(String model, String reference) {
    record Extra(String what, double usec, String detail) {}
    List<Extra> extras = new ArrayList<>();
    for (String command : commands(List.of(model, reference))) {
      double more =
          median(r -> r.phase(model).usecPer(command))
              - median(r -> r.phase(reference).usecPer(command));
      String detail =
          " (%s vs %s calls)"
              .formatted(
                  calls(median(r -> callsPer(r.phase(model), command))),
                  calls(median(r -> callsPer(r.phase(reference), command))));
      extras.add(new Extra(command.toUpperCase(Locale.ROOT), more, detail));
    }
    double overhead =
        (script(model) ? overhead(model) : 0) - (script(reference) ? overhead(reference) : 0);
    extras.add(new Extra(OVERHEAD, overhead, ""));
    return extras.stream()
        .filter(e -> e.usec() >= 0.005)
        .sorted(Comparator.comparingDouble(Extra::usec).reversed())
        .map(e -> e.what() + " +" + usec(e.usec()) + " µs" + e.detail())
        .reduce((a, b) -> a + ", " + b)
        .orElse("nothing measurable");
  }

  private Set<String> commands(List<String> phases) {
    Set<String> commands = new TreeSet<>();
    rounds.forEach(r -> phases.forEach(p -> commands.addAll(r.phase(p).dataCommands().keySet())));
    return commands;
  }

  private static boolean script(String phase) {
    return !phase.startsWith("raw");
  }

  private double overhead(String phase) {
    return median(r -> r.phase(phase).scriptOverheadPer());
  }

  private static double callsPer(Phase phase, String command) {
    return (double) phase.calls(command) / phase.operations;
  }

  double median(ToDoubleFunction<Round> figure) {
    return Spread.of(rounds, figure).median();
  }

  /** The median over the rounds of value {@code column}. */
  double m(String column) {
    return median(r -> value(column, r));
  }

  /** The median over the rounds of value {@code over} ÷ value {@code under} in the same round. */
  double m(String over, String under) {
    return median(r -> value(over, r) / value(under, r));
  }

  private static String usec(double value) {
    return Markdown.f("%.2f", value);
  }

  /** Calls per operation to three significant digits: {@code 2}, {@code 0.002}. */
  private static String calls(double value) {
    return new BigDecimal(value).round(new MathContext(3)).stripTrailingZeros().toPlainString();
  }

  /** The ratio of value {@code over} to value {@code under}, as listed in {@link #RATIOS}. */
  private static Figure ratio(String over, String under) {
    return RATIOS.stream()
        .filter(f -> f.column().equals(over) && f.under().equals(under))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException(over + " ÷ " + under));
  }

  /** One figure a line, "column | format | label", or for ratios "over | under | label". */
  private static List<Figure> figures(String lines, boolean ratios) {
    return lines
        .lines()
        .map(line -> line.split(" \\| "))
        .map(
            f ->
                ratios ? new Figure(f[2], f[0], "%.2f×", f[1]) : new Figure(f[2], f[0], f[1], null))
        .toList();
  }
}
