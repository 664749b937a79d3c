package io.anteroom.bench.crowd;

import static io.anteroom.bench.crowd.Markdown.f;
import static io.anteroom.bench.crowd.Markdown.mb;
import static io.anteroom.bench.crowd.Markdown.n;
import static io.anteroom.bench.crowd.Markdown.signedMb;

import java.time.temporal.ChronoUnit;

/** The results file: what ran where, the two verdicts, then the figures behind them. */
final class CrowdReport {

  private final CrowdResults r;
  private final HeapTrend trend;
  private final Markdown md = new Markdown();

  CrowdReport(CrowdResults results) {
    this.r = results;
    this.trend = HeapTrend.of(results.readings());
  }

  String markdown() {
    header();
    verdicts();
    new BurstSection(r, trend, md).write();
    HeapSection heap = new HeapSection(r, trend, md);
    heap.heap();
    heap.status();
    method();
    return md.toString();
  }

  private void header() {
    CrowdOptions o = r.options();
    md.line("# The gateway with a crowd waiting: heap and burst");
    md.line("");
    md.line("| | |");
    md.line("|---|---|");
    md.line(
        "| date (UTC) | "
            + r.started().truncatedTo(ChronoUnit.SECONDS)
            + ", "
            + f("%.1f", r.minutes())
            + " minutes |");
    md.line("| command | `" + o.command() + "` |");
    md.line("| machine | " + r.machine().description() + " |");
    md.line(
        "| host load | load average "
            + r.machine().loadAverage()
            + " at start, "
            + r.loadAtEnd()
            + " at the end; the gateway, Redis and this load tool share these CPUs |");
    md.line("| Java | " + r.machine().java() + " |");
    md.line(
        "| gateway | "
            + r.gatewayJar()
            + "; `"
            + r.gatewayCommand()
            + "`; collector: "
            + r.collector()
            + " |");
    md.line(
        "| redis-server | "
            + r.redisVersion()
            + ", started by the tool on a free loopback port, not persistent |");
    md.line(
        "| load | the tool's own NIO HTTP/1.1 client on one thread: "
            + o.inFlight()
            + " keep-alive connections, one request in flight on each, each `GET /products/<item>` with `Accept: application/json` and no cookies: a new visitor; "
            + Joiner.TIMEOUT.toSeconds()
            + " s timeout |");
    md.line("");
  }

  private void verdicts() {
    BurstResult b = r.burst();
    OrderCheck order = b.order();
    md.line("## Verdicts");
    md.line("");
    md.line("| goal | target | measured | verdict |");
    md.line("|---|---|---|---|");
    md.line(
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
    md.line(
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
    md.line("");
    md.line(gatewayShare());
    md.line("");
  }

  private String verdict9() {
    String verdict = trend.flat(r.options().visitors()) ? "**flat**" : "**grows**";
    return trend.conclusive()
        ? verdict
        : verdict
            + " (too few to judge: fewer than "
            + n(HeapTrend.ENOUGH_VISITORS)
            + " joined through the gateway between the readings)";
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

  private void method() {
    md.line("## How it is measured");
    md.line("");
    md.line(
        "`bench/crowd.sh` builds the gateway and this tool, then the tool starts a redis-server, a stub origin and the real gateway (`java -jar`, `config/anteroom.yml`, a fixed test signing key, the queues `"
            + CrowdBench.WARMUP
            + "` and `"
            + CrowdBench.CROWD
            + "` turned on at start). No admission worker runs, so nobody leaves a line and ranks never move.");
    md.line(
        "Each join records when it was sent and answered (`System.nanoTime`), the status, the position of the JSON body and the visitor id from the ticket cookie's payload (`sub`, read without checking the signature).");
    md.line(
        "Order: for every pair where A's answer arrived before B's request was sent, A's score in Redis must be lower than B's; a sweep over the joins by send time, keeping the highest score answered so far, checks all such pairs.");
    md.line(
        "Heap: live bytes after a full collection at each checkpoint. The verdict \"flat\" needs less than "
            + mb(HeapTrend.TOLERANCE_BYTES)
            + " MB of growth from the first reading with people waiting to the last, and a slope that would not add that much over "
            + n(r.options().visitors())
            + " visitors either ("
            + f("%.1f", HeapTrend.TOLERANCE_BYTES / (double) r.options().visitors())
            + " bytes per visitor). Joins and status polls on the warm-up line first load the code those requests use, so one-time class loading is not counted as growth. Throughput and latency depend on this machine, which the gateway shares with Redis and the load tool: compare them across runs on the same machine only.");
  }
}
