package io.anteroom.bench.micro;

import static io.anteroom.bench.micro.MicroReport.allocation;
import static io.anteroom.bench.micro.MicroReport.named;
import static io.anteroom.bench.micro.MicroReport.number;

import io.anteroom.bench.Markdown;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.openjdk.jmh.results.RunResult;

/**
 * The report's lines on timing the origin ({@link OriginBenchmarks}, {@link
 * OriginWatchBenchmarks}): what the auto-pilot's {@code OriginWatch} adds to a pass holder's
 * request, next to the filter's decision and to the gateway CPU a whole request takes in the
 * recorded pass-holders run.
 */
final class OriginLines {

  /** Where the gateway CPU per pass holder's request comes from. */
  static final Path PASS_HOLDERS = Path.of("bench/results/pass-holders.md");

  /** The goal: the watch adds at most this share of a pass holder's whole request. */
  static final double GOAL = 0.03;

  private OriginLines() {}

  static void append(Markdown md, List<RunResult> runs) {
    RunResult reference = named(runs, "answeredNoOpReference");
    RunResult filter = named(runs, "answeredWaitingRoomPassHolder");
    RunResult holder = named(runs, "originTimedHolder");
    RunResult other = named(runs, "originTimedOther");
    RunResult record = named(runs, "recordAnswer");
    RunResult take = named(runs, "takeAndEncode");
    if (reference == null && holder == null && record == null && take == null) {
      return;
    }
    md.line("\nTiming the origin, from the medians of the iterations (robust to a busy host):\n");
    if (reference != null && other != null) {
      md.line(
          "- originTimedOther less answeredNoOpReference (the timer alone): %s ns/op, %s B/op",
          ns(other, reference), bytes(other, reference));
    }
    double perSecond = passHoldersPerCpuSecond();
    double request = 1e9 / perSecond;
    if (holder != null && other != null) {
      double watch = median(holder) - median(other);
      md.line(
          "- originTimedHolder less originTimedOther (the OriginWatch per pass holder): %s ns/op,"
              + " %s B/op; %s of a pass holder's whole request",
          ns(holder, other), bytes(holder, other), share(watch, request));
      if (reference != null && filter != null) {
        double with = median(filter) - median(reference);
        md.line(
            "- answeredWaitingRoomPassHolder less answeredNoOpReference (the filter's decision and"
                + " the origin timing, OriginWatch included): %s ns/op; without the OriginWatch"
                + " %s ns/op; with ÷ without %s",
            number("%.1f", with),
            number("%.1f", with - watch),
            number("%.3f", with / (with - watch)));
      }
    }
    if (record != null) {
      md.line(
          "- recordAnswer (the OriginWatch's own work per pass holder): %s ns/op, %s B/op; %s of a"
              + " pass holder's whole request",
          number("%.1f", median(record)),
          number("%.0f", allocation(record)),
          share(median(record), request));
    }
    if (!Double.isNaN(perSecond)) {
      md.line(
          "- a pass holder's whole request: %s µs of gateway CPU (%s requests per second of a"
              + " gateway core, %s); goal: the OriginWatch adds ≤ %s %%",
          number("%.1f", request / 1000),
          number("%.0f", perSecond),
          PASS_HOLDERS,
          number("%.0f", 100 * GOAL));
    }
    if (take != null) {
      md.line(
          "- takeAndEncode, once a second per room with auto-pilot on: %s µs, %s B; %s %% of a"
              + " core, %s ns per answer recorded (%d a second)",
          number("%.1f", median(take) / 1000),
          number("%.0f", allocation(take)),
          number("%.4f", median(take) / 1e7),
          number("%.1f", median(take) / OriginWatchBenchmarks.ANSWERS),
          OriginWatchBenchmarks.ANSWERS);
    }
  }

  private static String share(double nanos, double request) {
    return Double.isNaN(request) ? "n/a" : number("%.3f", 100 * nanos / request) + " %";
  }

  /** The median of the run's iteration scores, all forks together. */
  static double median(RunResult run) {
    double[] scores =
        run.getBenchmarkResults().stream()
            .flatMap(result -> result.getIterationResults().stream())
            .mapToDouble(iteration -> iteration.getPrimaryResult().getScore())
            .sorted()
            .toArray();
    int half = scores.length / 2;
    return scores.length % 2 == 1 ? scores[half] : (scores[half - 1] + scores[half]) / 2;
  }

  /**
   * The pass holders' median requests per second of gateway CPU in the recorded pass-holders run,
   * or NaN when there is none.
   */
  static double passHoldersPerCpuSecond() {
    try {
      for (String line : Files.readAllLines(PASS_HOLDERS)) {
        if (line.startsWith("| requests per second of that CPU |")) {
          return Double.parseDouble(line.split("\\|")[2].trim().split(" ")[0]);
        }
      }
    } catch (IOException | RuntimeException e) {
      return Double.NaN;
    }
    return Double.NaN;
  }

  private static String ns(RunResult run, RunResult less) {
    return number("%.1f", median(run) - median(less));
  }

  private static String bytes(RunResult run, RunResult less) {
    return number("%.0f", allocation(run) - allocation(less));
  }
}
