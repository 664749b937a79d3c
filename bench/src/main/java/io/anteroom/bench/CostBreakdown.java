package io.anteroom.bench;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * Splits measurements into the commands the server ran, so a script's cost can be set against its
 * reference command by command. Every figure is the median over the rounds, per operation.
 */
final class CostBreakdown {

  static final String OVERHEAD = "Lua + EVALSHA itself";

  /**
   * One measured column.
   *
   * @param label column heading
   * @param phases the phase in every measured round
   * @param script whether the phase ran a script, whose time includes its commands
   */
  record Column(String label, List<PhaseResult> phases, boolean script) {}

  private CostBreakdown() {}

  /** A Markdown table: µs per operation and (calls per operation) of each command, per column. */
  static String table(String title, List<Column> columns) {
    StringBuilder out = new StringBuilder("| ").append(title).append(" |");
    columns.forEach(c -> out.append(' ').append(c.label()).append(" |"));
    out.append("\n|---|").append("---:|".repeat(columns.size())).append('\n');
    for (String command : commands(columns)) {
      out.append("| ").append(command.toUpperCase(Locale.ROOT)).append(" |");
      for (Column column : columns) {
        out.append(' ').append(cell(column, command)).append(" |");
      }
      out.append('\n');
    }
    out.append("| ").append(OVERHEAD).append(" |");
    for (Column column : columns) {
      out.append(' ')
          .append(column.script() ? usec(median(column, PhaseResult::scriptOverheadPer)) : "–")
          .append(" |");
    }
    out.append("\n| **total** |");
    columns.forEach(
        c -> out.append(" **").append(usec(median(c, CostBreakdown::total))).append("** |"));
    return out.append('\n').toString();
  }

  /**
   * What the model spends beyond the reference, largest first, for example {@code ZADD +0.90 µs (2
   * calls vs 1)}; only the commands and overhead that cost more.
   */
  static String differences(Column model, Column reference) {
    record Extra(String what, double usec, String detail) {}
    List<Extra> extras = new ArrayList<>();
    for (String command : commands(List.of(model, reference))) {
      double more = usecPer(model, command) - usecPer(reference, command);
      String detail =
          " ("
              + calls(callsPer(model, command))
              + " vs "
              + calls(callsPer(reference, command))
              + " calls)";
      extras.add(new Extra(command.toUpperCase(Locale.ROOT), more, detail));
    }
    double overhead =
        (model.script() ? median(model, PhaseResult::scriptOverheadPer) : 0)
            - (reference.script() ? median(reference, PhaseResult::scriptOverheadPer) : 0);
    extras.add(new Extra(OVERHEAD, overhead, ""));
    return extras.stream()
        .filter(e -> e.usec() >= 0.005)
        .sorted(Comparator.comparingDouble(Extra::usec).reversed())
        .map(e -> e.what() + " +" + usec(e.usec()) + " µs" + e.detail())
        .reduce((a, b) -> a + ", " + b)
        .orElse("nothing measurable");
  }

  private static Set<String> commands(List<Column> columns) {
    Set<String> commands = new TreeSet<>();
    columns.forEach(c -> c.phases().forEach(p -> commands.addAll(p.dataCommands().keySet())));
    return commands;
  }

  private static String cell(Column column, String command) {
    double calls = callsPer(column, command);
    return calls == 0 ? "–" : usec(usecPer(column, command)) + " (" + calls(calls) + ")";
  }

  private static double usecPer(Column column, String command) {
    return median(column, p -> p.usecPer(command));
  }

  private static double callsPer(Column column, String command) {
    return median(column, p -> (double) p.calls(command) / p.operations());
  }

  private static double total(PhaseResult phase) {
    long data = phase.dataCommands().values().stream().mapToLong(CommandStat::usec).sum();
    long script = phase.usec(PhaseResult.SCRIPTS);
    return (double) (script > 0 ? script : data) / phase.operations();
  }

  private static double median(Column column, ToDoubleFunction<PhaseResult> figure) {
    return Spread.of(column.phases(), figure).median();
  }

  static String usec(double value) {
    return String.format(Locale.ROOT, "%.2f", value);
  }

  /** Calls per operation to three significant digits: {@code 2}, {@code 0.002}. */
  static String calls(double value) {
    return new BigDecimal(value).round(new MathContext(3)).stripTrailingZeros().toPlainString();
  }
}
