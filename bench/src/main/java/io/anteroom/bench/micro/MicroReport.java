package io.anteroom.bench.micro;

import io.anteroom.bench.Markdown;
import io.anteroom.bench.Run;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/** The Markdown report of a run: what it ran on and how, then one row per benchmark. */
final class MicroReport {

  private MicroReport() {}

  static String markdown(Collection<RunResult> results) {
    Markdown md = new Markdown().line("# Micro benchmarks\n");
    md.line("- Date: " + Instant.now().truncatedTo(ChronoUnit.SECONDS));
    md.line("- Machine: %s, load average %s when written", Run.machine(), Run.loadAverage());
    md.line("- Java: " + Run.java());
    md.line("- Command: `" + Run.command() + "`");
    List<RunResult> runs =
        results.stream()
            .sorted(Comparator.comparing((RunResult run) -> run.getParams().getBenchmark()))
            .toList();
    BenchmarkParams params = runs.get(0).getParams();
    md.line("- JMH: " + params.getJmhVersion() + ", profiler gc");
    md.line(
        "- Options: mode %s, %d fork(s), warm-up %d × %s, measurement %d × %s, %d thread(s)",
        params.getMode().shortLabel(),
        params.getForks(),
        params.getWarmup().getCount(),
        params.getWarmup().getTime(),
        params.getMeasurement().getCount(),
        params.getMeasurement().getTime(),
        params.getThreads());
    md.line("\n| Benchmark | Score | ± error (99.9 %) | Unit | Allocated B/op |");
    md.line("|---|---:|---:|---|---:|");
    for (RunResult run : runs) {
      Result<?> primary = run.getPrimaryResult();
      String[] name = run.getParams().getBenchmark().split("\\.");
      md.row(
          name[name.length - 2] + "." + name[name.length - 1],
          number("%.1f", primary.getScore()),
          number("%.1f", primary.getScoreError()),
          primary.getScoreUnit(),
          number("%.0f", allocation(run)));
    }
    md.line("");
    // Each filter's score and allocation less the reference's: what the filter itself costs.
    RunResult reference = named(runs, "noOpFilterReference");
    for (String filter : List.of("waitingRoomPassHolder", "pathGuard")) {
      RunResult run = named(runs, filter);
      if (reference != null && run != null) {
        md.line(
            "- %s less noOpFilterReference: %s %s, %s B/op",
            filter,
            number(
                "%.1f",
                run.getPrimaryResult().getScore() - reference.getPrimaryResult().getScore()),
            run.getPrimaryResult().getScoreUnit(),
            number("%.0f", allocation(run) - allocation(reference)));
      }
    }
    OriginLines.append(md, runs);
    PassSigningLines.append(md, runs);
    return md.line(
            "\nScores are averages per operation; B/op is JMH's gc.alloc.rate.norm, bytes"
                + " allocated per operation. The filter benchmarks build a fresh exchange per"
                + " operation, so compare them with noOpFilterReference, which does only that.")
        .toString();
  }

  /** The number, or "n/a" where JMH has none (the error of a single iteration). */
  static String number(String format, double value) {
    return Double.isNaN(value) ? "n/a" : Markdown.f(format, value);
  }

  static RunResult named(List<RunResult> runs, String method) {
    return runs.stream()
        .filter(run -> run.getParams().getBenchmark().endsWith("." + method))
        .findFirst()
        .orElse(null);
  }

  /** Bytes per operation, averaged over the run's forks (JMH's GC profiler). */
  static double allocation(RunResult run) {
    return run.getAggregatedResult().getSecondaryResults().entrySet().stream()
        .filter(e -> e.getKey().endsWith("gc.alloc.rate.norm"))
        .mapToDouble(e -> e.getValue().getScore())
        .findFirst()
        .orElse(Double.NaN);
  }
}
