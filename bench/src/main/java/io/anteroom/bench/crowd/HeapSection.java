package io.anteroom.bench.crowd;

import static io.anteroom.bench.crowd.Markdown.f;
import static io.anteroom.bench.crowd.Markdown.mb;
import static io.anteroom.bench.crowd.Markdown.n;
import static io.anteroom.bench.crowd.Markdown.signedMb;

import java.util.Map;

/** The results file's sections on the heap of goal 9, the status polls and the gateway's log. */
final class HeapSection {

  private final CrowdResults r;
  private final HeapTrend trend;
  private final Markdown md;

  HeapSection(CrowdResults results, HeapTrend trend, Markdown md) {
    this.r = results;
    this.trend = trend;
    this.md = md;
  }

  void heap() {
    md.line("## Heap with the line growing (goal 9)");
    md.line("");
    md.line(
        "At each checkpoint the load stops, `jcmd <pid> GC.class_histogram` runs a full collection and counts the live objects; `GC.heap_info` then gives the heap in use.");
    md.line("");
    md.line(
        "| checkpoint | waiting | joined via gateway | live heap MB | used after GC MB | RSS MB | joins/s before it |");
    md.line("|---|---:|---:|---:|---:|---:|---:|");
    int chunk = 0;
    for (HeapReading reading : r.readings()) {
      String rate = "";
      if (reading.label().equals("through the gateway")) {
        rate = f("%.0f", r.chunks().get(chunk++).perSecond());
      } else if (reading.label().equals("after the burst")) {
        rate = f("%.0f", r.burst().perSecond());
      }
      md.line(
          "| "
              + reading.label()
              + " | "
              + n(reading.waiting())
              + " | "
              + n(reading.viaGateway())
              + " | "
              + mb(reading.liveBytes())
              + " | "
              + mb(reading.usedBytes())
              + " | "
              + mb(reading.rssBytes())
              + " | "
              + rate
              + " |");
    }
    md.line("");
    md.line(
        "From "
            + n(trend.first().waiting())
            + " to "
            + n(trend.last().waiting())
            + " waiting the live heap changed by "
            + signedMb(trend.growthBytes())
            + " MB; the least-squares slope over the readings with people waiting is "
            + f("%.2f", trend.bytesPerVisitor())
            + " bytes per waiting visitor. A gateway that kept even one 22-character id per visitor would grow by roughly 64 bytes each, "
            + n(64L * (trend.last().waiting() - trend.first().waiting()) / 1_000_000)
            + " MB here.");
    md.line("");
    long badChunks = r.chunks().stream().filter(c -> !c.passed()).count();
    md.line(
        "Every stretch of joins after the burst was checked too: "
            + (badChunks == 0
                ? "all answers were waiting answers, their positions were exactly the next places in line, each once, and the line grew by the number of joins."
                : badChunks
                    + " stretch(es) had answers other than waiting, or positions or growth that did not match: see the log."));
    md.line("");
    md.line(
        "Classes whose live bytes grew most between those two readings (noise below a few hundred KB is expected: caches filled once, JIT-related objects):");
    md.line("");
    md.line("| class | growth KB |");
    md.line("|---|---:|");
    for (Map.Entry<String, Long> growing : trend.growingClasses()) {
      md.line("| `" + growing.getKey() + "` | " + f("%.1f", growing.getValue() / 1e3) + " |");
    }
    md.line("");
    md.line(
        "Redis `used_memory`: "
            + mb(r.redisEmptyMemory())
            + " MB before anyone joined, "
            + mb(r.redisUsedMemory())
            + " MB with "
            + n(r.lineLength())
            + " in the crowd's line (and the warm-up line), about "
            + f(
                "%.0f",
                (r.redisUsedMemory() - r.redisEmptyMemory())
                    / (double) Math.max(1, r.lineLength() + r.warmup().lineAfter()))
            + " bytes per waiting visitor.");
    md.line("");
  }

  void status() {
    StatusSample s = r.status();
    Latencies l = Latencies.of(s.latencies());
    md.line("## Status polls with the whole crowd waiting");
    md.line("");
    md.line(
        n(s.polled())
            + " visitors, spread over those who joined through the gateway (deepest position "
            + n(s.deepest())
            + "), polled `GET /_anteroom/status?room=shop` with their tickets, one after another: "
            + n(s.waitingAnswers())
            + " waiting answers, "
            + n(s.positionMatches())
            + " positions equal to ZRANK + 1, "
            + n(s.lengthMatches())
            + " line lengths equal to ZCARD ("
            + n(r.lineLength())
            + "). Poll latency p50 "
            + f("%.1f", l.p50())
            + " ms, p99 "
            + f("%.1f", l.p99())
            + " ms. "
            + (s.passed() ? "**Positions correct.**" : "**Some positions were wrong.**"));
    md.line("");
    Map<String, Integer> warnings = WarningSummary.of(r.gatewayWarnings());
    md.line(
        "The gateway logged "
            + r.gatewayWarnings().size()
            + " WARN or ERROR lines during the run"
            + (warnings.isEmpty() ? "." : ":"));
    md.line("");
    warnings.forEach((warning, count) -> md.line("- " + count + " × `" + warning + "`"));
    if (!warnings.isEmpty()) {
      md.line("");
    }
  }
}
