package io.anteroom.bench.crowd;

import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Map;

/** The results file: what ran where, the two verdicts, then the figures behind them. */
final class CrowdReport {

  private final CrowdResults r;
  private final HeapTrend trend;
  private final StringBuilder out = new StringBuilder();

  CrowdReport(CrowdResults results) {
    this.r = results;
    this.trend = HeapTrend.of(results.readings());
  }

  String markdown() {
    header();
    verdicts();
    burst();
    heap();
    status();
    method();
    return out.toString();
  }

  private void header() {
    CrowdOptions o = r.options();
    line("# The gateway with a crowd waiting: heap and burst");
    line("");
    line("| | |");
    line("|---|---|");
    line(
        "| date (UTC) | "
            + r.started().truncatedTo(ChronoUnit.SECONDS)
            + ", "
            + f("%.1f", r.minutes())
            + " minutes |");
    line("| command | `" + o.command() + "` |");
    line("| machine | " + r.machine().description() + " |");
    line(
        "| host load | load average "
            + r.machine().loadAverage()
            + " at start, "
            + r.loadAtEnd()
            + " at the end; the gateway, Redis and this load tool share these CPUs |");
    line("| Java | " + r.machine().java() + " |");
    line(
        "| gateway | "
            + r.gatewayJar()
            + "; `"
            + r.gatewayCommand()
            + "`; collector: "
            + r.collector()
            + " |");
    line(
        "| redis-server | "
            + r.redisVersion()
            + ", started by the tool on a free loopback port, not persistent |");
    line(
        "| load | Java's `HttpClient`, HTTP/1.1, "
            + o.inFlight()
            + " requests in flight, each `GET /products/<item>` with `Accept: application/json` and no cookies: a new visitor; "
            + Joiner.TIMEOUT.toSeconds()
            + " s timeout |");
    line("");
  }

  private void verdicts() {
    BurstResult b = r.burst();
    OrderCheck order = b.order();
    line("## Verdicts");
    line("");
    line("| goal | target | measured | verdict |");
    line("|---|---|---|---|");
    line(
        "| 9 | gateway heap flat with "
            + n(r.options().visitors())
            + " waiting: no per-visitor state | live heap after a full GC "
            + mb(trend.first().liveBytes())
            + " MB at "
            + n(trend.first().waiting())
            + " waiting, "
            + mb(trend.last().liveBytes())
            + " MB at "
            + n(trend.last().waiting())
            + " ("
            + signedMb(trend.growthBytes())
            + " MB; slope "
            + f("%.2f", trend.bytesPerVisitor())
            + " bytes per visitor); tolerance < "
            + mb(HeapTrend.TOLERANCE_BYTES)
            + " MB | "
            + verdict9()
            + " |");
    line(
        "| 10 | a burst of "
            + n(b.size())
            + " new visitors: all enqueued, zero errors, order kept | "
            + n(b.kinds().get(Answer.Kind.WAITING))
            + " waiting answers, "
            + b.failures()
            + " errors; line grew by "
            + n(b.lineAfter() - b.lineBefore())
            + "; "
            + n(order.distinctVisitors())
            + " distinct visitor ids; "
            + order.outOfOrder()
            + " out of order among "
            + n(order.constrained())
            + " joins sent after another's answer; "
            + n(order.positionExact())
            + " positions exact; "
            + f("%.0f", b.perSecond())
            + " joins/s | "
            + (b.passed() ? "**met**" : "**not met**")
            + " |");
    line("");
    line(gatewayShare());
    line("");
  }

  private String verdict9() {
    String verdict = trend.flat(r.options().visitors()) ? "**flat**" : "**grows**";
    return trend.conclusive()
        ? verdict
        : verdict
            + " (too few visitors between readings to judge: fewer than "
            + n(HeapTrend.ENOUGH_VISITORS)
            + ")";
  }

  private String gatewayShare() {
    if (r.direct() == 0) {
      return "All " + n(r.viaGateway()) + " people in the crowd's line joined through the gateway.";
    }
    return n(r.viaGateway())
        + " people of the crowd joined through the gateway within its "
        + r.options().gatewayBudget().toSeconds()
        + " s budget; the other "
        + n(r.direct())
        + " were written straight into Redis with queue-core's own store and enqueue script ("
        + f("%.1f", r.directSeconds())
        + " s), so the gateway holds a line of "
        + n(r.lineLength())
        + " but created state, if any, only for the first "
        + n(r.viaGateway())
        + ". Its slope over those is "
        + f("%.2f", trend.bytesPerGatewayVisitor())
        + " bytes per visitor.";
  }

  private void burst() {
    BurstResult b = r.burst();
    line("## Burst (goal 10)");
    line("");
    line(
        "First "
            + n(r.warmup().joins())
            + " joins on another line (`"
            + CrowdBench.WARMUP
            + "`) warmed the gateway up, at "
            + f("%.0f", r.warmup().perSecond())
            + " joins/s; answers other than waiting there: "
            + r.warmup().otherStatuses()
            + ". Then one visitor opened the crowd's line (`"
            + CrowdBench.CROWD
            + "`; "
            + r.openers()
            + " join(s): while a line is empty the token bucket may let a newcomer in at once), and the burst followed.");
    line("");
    line("| figure | value |");
    line("|---|---:|");
    line("| joins sent | " + n(b.size()) + " |");
    for (Map.Entry<Answer.Kind, Integer> kind : b.kinds().entrySet()) {
      line(
          "| answers: "
              + kind.getKey().name().toLowerCase(Locale.ROOT).replace('_', ' ')
              + " | "
              + n(kind.getValue())
              + " |");
    }
    line("| statuses other than a waiting answer | " + b.otherStatuses() + " |");
    line("| line before → after (ZCARD) | " + n(b.lineBefore()) + " → " + n(b.lineAfter()) + " |");
    line("| waiting answers whose visitor is not in the line | " + b.order().missing() + " |");
    line(
        "| distinct visitor ids / waiting answers | "
            + n(b.order().distinctVisitors())
            + " / "
            + n(b.order().waitingAnswers())
            + " |");
    line(
        "| joins sent after some other join's answer arrived | "
            + n(b.order().constrained())
            + " |");
    line(
        "| of them, behind a score answered earlier: out of order | "
            + b.order().outOfOrder()
            + " |");
    line("| position answered = final ZRANK + 1 | " + n(b.order().positionExact()) + " |");
    line("| position answered > final ZRANK + 1 | " + b.order().positionAbove() + " |");
    line("| time, first request to last answer | " + f("%.1f", b.seconds()) + " s |");
    line("| throughput | " + f("%.0f", b.perSecond()) + " joins/s |");
    line(
        "| latency p50 / p99 / max | "
            + f("%.1f", b.latencies().p50())
            + " / "
            + f("%.1f", b.latencies().p99())
            + " / "
            + f("%.1f", b.latencies().max())
            + " ms |");
    line(
        "| CPU during the burst, % of one core: gateway / Redis / load tool | "
            + f("%.0f", b.cpu()[0])
            + " / "
            + f("%.0f", b.cpu()[1])
            + " / "
            + f("%.0f", b.cpu()[2])
            + " |");
    if (b.firstError() != null) {
      line("| first request failure | `" + b.firstError() + "` |");
    }
    line("");
    long ghosts = b.lineAfter() - b.lineBefore() - b.kinds().get(Answer.Kind.WAITING);
    if (ghosts > 0) {
      line(
          n(ghosts)
              + " of the visitors who got no waiting answer still took a place: the gateway gave up on its Redis call (`anteroom.redis.command-timeout`, see the log below) after Redis had run the script. Such a place is never polled, so the worker would count it as abandoned after `abandon-after`.");
      line("");
    }
  }

  private void heap() {
    line("## Heap with the line growing (goal 9)");
    line("");
    line(
        "At each checkpoint the load stops, `jcmd <pid> GC.class_histogram` runs a full collection and counts the live objects; `GC.heap_info` then gives the heap in use.");
    line("");
    line(
        "| checkpoint | waiting | joined via gateway | live heap MB | used after GC MB | RSS MB | joins/s before it |");
    line("|---|---:|---:|---:|---:|---:|---:|");
    int chunk = 0;
    for (HeapReading reading : r.readings()) {
      String rate = "";
      if (reading.label().equals("through the gateway")) {
        rate = f("%.0f", r.chunks().get(chunk++).perSecond());
      } else if (reading.label().equals("after the burst")) {
        rate = f("%.0f", r.burst().perSecond());
      }
      line(
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
    line("");
    line(
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
    line("");
    long badChunks = r.chunks().stream().filter(c -> !c.passed()).count();
    line(
        "Every stretch of joins after the burst was checked too: "
            + (badChunks == 0
                ? "all answers were waiting answers, their positions were exactly the next places in line, each once, and the line grew by the number of joins."
                : badChunks
                    + " stretch(es) had answers other than waiting, or positions or growth that did not match: see the log."));
    line("");
    line(
        "Classes whose live bytes grew most between those two readings (noise below a few hundred KB is expected: caches filled once, JIT-related objects):");
    line("");
    line("| class | growth KB |");
    line("|---|---:|");
    for (Map.Entry<String, Long> growing : trend.growingClasses()) {
      line("| `" + growing.getKey() + "` | " + f("%.1f", growing.getValue() / 1e3) + " |");
    }
    line("");
    line(
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
    line("");
  }

  private void status() {
    StatusSample s = r.status();
    Latencies l = Latencies.of(s.latencies());
    line("## Status polls with the whole crowd waiting");
    line("");
    line(
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
    line("");
    Map<String, Integer> warnings = WarningSummary.of(r.gatewayWarnings());
    line(
        "The gateway logged "
            + r.gatewayWarnings().size()
            + " WARN or ERROR lines during the run"
            + (warnings.isEmpty() ? "." : ":"));
    line("");
    warnings.forEach((warning, count) -> line("- " + count + " × `" + warning + "`"));
    if (!warnings.isEmpty()) {
      line("");
    }
  }

  private void method() {
    line("## How it is measured");
    line("");
    line(
        "`bench/crowd.sh` builds the gateway and this tool, then the tool starts a redis-server, a stub origin and the real gateway (`java -jar`, `config/anteroom.yml`, a fixed test signing key, the queues `"
            + CrowdBench.WARMUP
            + "` and `"
            + CrowdBench.CROWD
            + "` turned on at start). No admission worker runs, so nobody leaves a line and ranks never move.");
    line(
        "Each join records when it was sent and answered (`System.nanoTime`), the status, the position of the JSON body and the visitor id from the ticket cookie's payload (`sub`, read without checking the signature).");
    line(
        "Order: for every pair where A's answer arrived before B's request was sent, A's score in Redis must be lower than B's; a sweep over the joins by send time, keeping the highest score answered so far, checks all such pairs.");
    line(
        "Heap: live bytes after a full collection at each checkpoint. The verdict \"flat\" needs less than "
            + mb(HeapTrend.TOLERANCE_BYTES)
            + " MB of growth from the first reading with people waiting to the last, and a slope that would not add that much over "
            + n(r.options().visitors())
            + " visitors either ("
            + f("%.1f", HeapTrend.TOLERANCE_BYTES / (double) r.options().visitors())
            + " bytes per visitor). Joins and status polls on the warm-up line first load the code those requests use, so one-time class loading is not counted as growth. Throughput and latency depend on this machine, which the gateway shares with Redis and the load tool: compare them across runs on the same machine only.");
  }

  private void line(String text) {
    out.append(text).append('\n');
  }

  private static String f(String format, double value) {
    return String.format(Locale.ROOT, format, value);
  }

  private static String n(long value) {
    return String.format(Locale.ROOT, "%,d", value);
  }

  private static String mb(long bytes) {
    return f("%.1f", bytes / 1e6);
  }

  private static String signedMb(long bytes) {
    return f("%+.1f", bytes / 1e6);
  }
}
