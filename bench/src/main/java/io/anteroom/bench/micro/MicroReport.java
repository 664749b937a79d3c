package io.anteroom.bench.micro;

import io.anteroom.bench.MachineInfo;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.options.TimeValue;

/** The Markdown report of a run: what it ran on and how, then one row per benchmark. */
final class MicroReport {

  private static final String ALLOCATION = "gc.alloc.rate.norm";

  private MicroReport() {}

  static String markdown(Collection<RunResult> results, String command) {
    StringBuilder md = new StringBuilder();
    md.append("# Micro benchmarks\n\n");
    md.append("- Date: ").append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append('\n');
    md.append("- Machine: ").append(machine()).append('\n');
    md.append("- Java: ").append(MachineInfo.probe().java()).append('\n');
    md.append("- Command: `").append(command).append("`\n");
    if (!results.isEmpty()) {
      var params = results.iterator().next().getParams();
      md.append("- JMH: ").append(params.getJmhVersion()).append(", profiler gc\n");
      md.append("- Options: mode ")
          .append(params.getMode().shortLabel())
          .append(", ")
          .append(params.getForks())
          .append(" fork(s), warm-up ")
          .append(iterations(params.getWarmup().getCount(), params.getWarmup().getTime()))
          .append(", measurement ")
          .append(iterations(params.getMeasurement().getCount(), params.getMeasurement().getTime()))
          .append(", ")
          .append(params.getThreads())
          .append(" thread(s)\n");
    }
    md.append('\n');
    md.append("| Benchmark | Score | ± error (99.9 %) | Unit | Allocated B/op |\n");
    md.append("|---|---:|---:|---|---:|\n");
    List<RunResult> sorted = new ArrayList<>(results);
    sorted.sort((a, b) -> a.getParams().getBenchmark().compareTo(b.getParams().getBenchmark()));
    for (RunResult run : sorted) {
      Result<?> primary = run.getPrimaryResult();
      md.append("| ")
          .append(shortName(run.getParams().getBenchmark()))
          .append(" | ")
          .append(number(primary.getScore()))
          .append(" | ")
          .append(number(primary.getScoreError()))
          .append(" | ")
          .append(primary.getScoreUnit())
          .append(" | ")
          .append(allocation(run))
          .append(" |\n");
    }
    md.append('\n');
    ownCosts(md, sorted);
    md.append(
        "Scores are averages per operation; B/op is JMH's gc.alloc.rate.norm, bytes allocated per"
            + " operation. The filter benchmarks build a fresh exchange per operation, so"
            + " compare them with noOpFilterReference, which does only that.\n");
    return md.toString();
  }

  private static String iterations(int count, TimeValue time) {
    return count + " × " + time;
  }

  /** Each filter's score and allocation less the reference's: what the filter itself costs. */
  private static void ownCosts(StringBuilder md, List<RunResult> runs) {
    RunResult reference = named(runs, "noOpFilterReference");
    if (reference == null) {
      return;
    }
    for (String filter : List.of("waitingRoomPassHolder", "pathGuard")) {
      RunResult run = named(runs, filter);
      if (run == null) {
        continue;
      }
      md.append("- ")
          .append(filter)
          .append(" less noOpFilterReference: ")
          .append(
              number(run.getPrimaryResult().getScore() - reference.getPrimaryResult().getScore()))
          .append(' ')
          .append(run.getPrimaryResult().getScoreUnit())
          .append(", ")
          .append(difference(allocation(run), allocation(reference)))
          .append(" B/op\n");
    }
    md.append('\n');
  }

  private static RunResult named(List<RunResult> runs, String method) {
    for (RunResult run : runs) {
      if (run.getParams().getBenchmark().endsWith("." + method)) {
        return run;
      }
    }
    return null;
  }

  private static String difference(String bytes, String referenceBytes) {
    try {
      return Long.toString(Long.parseLong(bytes) - Long.parseLong(referenceBytes));
    } catch (NumberFormatException e) {
      return "n/a";
    }
  }

  /** Bytes per operation, averaged over the run's forks; n/a without the GC profiler. */
  private static String allocation(RunResult run) {
    for (Map.Entry<String, Result> secondary :
        run.getAggregatedResult().getSecondaryResults().entrySet()) {
      if (secondary.getKey().endsWith(ALLOCATION)) {
        return String.format(Locale.ROOT, "%.0f", secondary.getValue().getScore());
      }
    }
    return "n/a";
  }

  private static String shortName(String benchmark) {
    String[] parts = benchmark.split("\\.");
    return parts[parts.length - 2] + "." + parts[parts.length - 1];
  }

  private static String number(double value) {
    return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.1f", value);
  }

  private static String machine() {
    MachineInfo machine = MachineInfo.probe();
    return machine.description() + ", load average " + machine.loadAverage() + " when written";
  }
}
