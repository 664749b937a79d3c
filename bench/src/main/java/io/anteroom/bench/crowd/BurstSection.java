package io.anteroom.bench.crowd;

import static io.anteroom.bench.crowd.Markdown.f;
import static io.anteroom.bench.crowd.Markdown.n;

import java.util.Locale;
import java.util.Map;

/** The results file's section on the burst of goal 10. */
final class BurstSection {

  private final CrowdResults r;
  private final HeapTrend trend;
  private final Markdown md;

  BurstSection(CrowdResults results, HeapTrend trend, Markdown md) {
    this.r = results;
    this.trend = trend;
    this.md = md;
  }

  void write() {
    BurstResult b = r.burst();
    md.line("## Burst (goal 10)");
    md.line("");
    md.line(
        "First "
            + n(r.warmup().joins())
            + " joins on another line (`"
            + CrowdBench.WARMUP
            + "`) warmed the gateway up, in slices of up to "
            + n(Lines.WARM_SLICE)
            + " until one was no longer "
            + f("%.0f", (WarmUp.STILL_WARMING - 1) * 100)
            + " % faster than all before (at least "
            + n(r.options().warmup())
            + ", at most "
            + n(r.options().maxWarmup())
            + " joins): "
            + f("%.0f", r.warmup().firstRate())
            + " joins/s in the first slice, "
            + f("%.0f", r.warmup().lastRate())
            + " in the last; answers other than waiting there: "
            + r.warmup().otherStatuses()
            + ". Then one visitor opened the crowd's line (`"
            + CrowdBench.CROWD
            + "`; "
            + r.openers()
            + " join(s): while a line is empty the token bucket may let a newcomer in at once), and the burst followed.");
    md.line("");
    md.line("| figure | value |");
    md.line("|---|---:|");
    md.line("| joins sent | " + n(b.size()) + " |");
    for (Map.Entry<Answer.Kind, Integer> kind : b.kinds().entrySet()) {
      md.line(
          "| answers: "
              + kind.getKey().name().toLowerCase(Locale.ROOT).replace('_', ' ')
              + " | "
              + n(kind.getValue())
              + " |");
    }
    md.line("| statuses other than a waiting answer | " + b.otherStatuses() + " |");
    md.line(
        "| line before → after (ZCARD) | " + n(b.lineBefore()) + " → " + n(b.lineAfter()) + " |");
    md.line("| waiting answers whose visitor is not in the line | " + b.order().missing() + " |");
    md.line(
        "| distinct visitor ids / waiting answers | "
            + n(b.order().distinctVisitors())
            + " / "
            + n(b.order().waitingAnswers())
            + " |");
    md.line(
        "| joins sent after some other join's answer arrived | "
            + n(b.order().constrained())
            + " |");
    md.line(
        "| of them, behind a score answered earlier: out of order | "
            + b.order().outOfOrder()
            + " |");
    md.line("| position answered = final ZRANK + 1 | " + n(b.order().positionExact()) + " |");
    md.line("| position answered > final ZRANK + 1 | " + b.order().positionAbove() + " |");
    md.line("| time, first request to last answer | " + f("%.1f", b.seconds()) + " s |");
    md.line("| throughput | " + f("%.0f", b.perSecond()) + " joins/s |");
    md.line(
        "| latency p50 / p99 / max | "
            + f("%.1f", b.latencies().p50())
            + " / "
            + f("%.1f", b.latencies().p99())
            + " / "
            + f("%.1f", b.latencies().max())
            + " ms |");
    md.line(
        "| CPU during the burst, % of one core: gateway / Redis / load tool | "
            + f("%.0f", b.cpu()[0])
            + " / "
            + f("%.0f", b.cpu()[1])
            + " / "
            + f("%.0f", b.cpu()[2])
            + " |");
    if (b.firstError() != null) {
      md.line("| first request failure | `" + b.firstError() + "` |");
    }
    md.line("");
    long ghosts = b.lineAfter() - b.lineBefore() - b.kinds().get(Answer.Kind.WAITING);
    if (ghosts > 0) {
      md.line(
          n(ghosts)
              + " of the visitors who got no waiting answer still took a place: the gateway gave up on its Redis call (`anteroom.redis.command-timeout`, see the log below) after Redis had run the script. Such a place is never polled, so the worker would count it as abandoned after `abandon-after`.");
      md.line("");
    }
  }
}
