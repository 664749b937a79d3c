package io.anteroom.bench.micro;

import static io.anteroom.bench.micro.MicroReport.named;
import static io.anteroom.bench.micro.MicroReport.number;
import static io.anteroom.bench.micro.OriginLines.median;

import io.anteroom.bench.Markdown;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;

/**
 * The report's lines on pass signing ({@link PassSigningBenchmarks}): pass holders with Ed25519 or
 * ES256 passes ÷ pass holders with HS256 passes (goal: at least {@value #GOAL}), and what signing
 * and a first verification cost each way. Ratios are of medians of the iterations, robust to a busy
 * host.
 */
final class PassSigningLines {

  /** Asymmetric pass holders' throughput ÷ HS256 pass holders' throughput, at least. */
  static final double GOAL = 0.95;

  private PassSigningLines() {}

  static void append(Markdown md, List<RunResult> runs) {
    RunResult reference = named(runs, "passHolderNoOpReference");
    RunResult hs256 = named(runs, "hs256PassHolder");
    if (hs256 == null) {
      return;
    }
    md.line("\nPass signing, from the medians of the iterations (robust to a busy host):\n");
    for (String signing : List.of("ed25519", "es256")) {
      RunResult holder = named(runs, signing + "PassHolder");
      if (holder == null) {
        continue;
      }
      double whole = median(hs256) / median(holder);
      String line =
          "- %s pass holders ÷ HS256 pass holders (requests per second of the filter's decision"
              + " with a fresh exchange): %s (%s vs %s ns/op); goal ≥ %s: %s";
      md.line(
          line,
          signing,
          number("%.3f", whole),
          number("%.1f", median(holder)),
          number("%.1f", median(hs256)),
          number("%.2f", GOAL),
          whole >= GOAL ? "met" : "not met");
      if (reference != null) {
        md.line(
            "  - net of passHolderNoOpReference (the decision alone): %s vs %s ns/op, ratio %s",
            number("%.1f", median(holder) - median(reference)),
            number("%.1f", median(hs256) - median(reference)),
            number(
                "%.3f",
                (median(hs256) - median(reference)) / (median(holder) - median(reference))));
      }
    }
    for (String signing : List.of("hs256", "ed25519", "es256")) {
      RunResult issue = named(runs, signing + "Issue");
      RunResult read = named(runs, signing + "FirstRead");
      String capital = signing.substring(0, 1).toUpperCase(Locale.ROOT) + signing.substring(1);
      RunResult nimbus = named(runs, "verify" + capital);
      if (issue != null && read != null) {
        md.line(
            "- %s: the gateway issuing a pass (signing) %s µs, reading a pass never seen (verifying)"
                + " %s µs; an origin verifying one with nimbus %s µs",
            signing,
            number("%.2f", median(issue) / 1000),
            number("%.2f", median(read) / 1000),
            nimbus == null ? "n/a" : number("%.2f", median(nimbus) / 1000));
      }
    }
  }
}
