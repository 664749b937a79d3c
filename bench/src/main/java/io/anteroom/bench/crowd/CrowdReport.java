package io.anteroom.bench.crowd;

import static io.anteroom.bench.Markdown.f;
import static io.anteroom.bench.Markdown.n;

import io.anteroom.bench.Markdown;
import io.anteroom.bench.Run;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The results file: what ran where, the two verdicts, then the figures behind them. */
final class CrowdReport {

  private final CrowdBench r;
  private final Lines.Burst b;
  private final HeapTrend trend;
  private final Markdown md = new Markdown();

  CrowdReport(CrowdBench results) {
    this.r = results;
    this.b = results.burst;
    this.trend = HeapTrend.of(results.readings);
  }

  String markdown() {
    header();
    verdicts();
    burst();
    heap();
    status();
    method();
    return md.toString();
  }

  private void header() {
    md.line("# The gateway with a crowd waiting: heap and burst\n\n| | |\n|---|---|");
    md.line(
        "| date (UTC) | %s, %.1f minutes |", r.started.truncatedTo(ChronoUnit.SECONDS), r.minutes);
    md.row("command", "`" + Run.command() + "`");
    md.row("machine", Run.machine());
    md.line(
        "| host load | load average %s at start, %s at the end; the gateway, Redis and this load"
            + " tool share these CPUs |",
        r.loadAtStart, r.loadAtEnd);
    md.row("Java", Run.java());
    md.row("gateway", Run.option("gateway.note") + "; collector: " + r.collector);
    md.row("redis-server", r.redisVersion + LOOPBACK);
    md.line(
        "| load | the tool's own NIO HTTP/1.1 client on one thread: %d keep-alive connections, one"
            + " request in flight on each, each `GET /products/<item>` with `Accept:"
            + " application/json` and no cookies: a new visitor; %d s timeout |\n",
        CrowdBench.IN_FLIGHT, Lines.TIMEOUT.toSeconds());
  }

  private static final String LOOPBACK =
      ", started by the benchmark on a free loopback port, not persistent";

  private void verdicts() {
    OrderCheck order = b.order();
    md.line("## Verdicts\n\n| goal | target | measured | verdict |\n|---|---|---|---|");
    md.line(
        "| 9 | gateway heap flat with %s waiting: no per-visitor state | live heap after a full GC"
            + " %s MB at %s waiting, %s MB at %s (%s MB; slope %.2f bytes per visitor); tolerance"
            + " < %s MB | %s |",
        n(r.visitors),
        mb(trend.first().liveBytes()),
        n(trend.first().waiting()),
        mb(trend.last().liveBytes()),
        n(trend.last().waiting()),
        f("%+.1f", trend.growthBytes() / 1e6),
        trend.bytesPerVisitor(),
        mb(HeapTrend.TOLERANCE_BYTES),
        verdict9());
    md.line(
        "| 10 | a burst of %s new visitors: all enqueued, zero errors, order kept | %s waiting"
            + " answers, %d errors; line grew by %s; %s distinct visitor ids; %d out of order"
            + " among %s joins sent after another's answer; %s positions exact; %.0f joins/s |"
            + " %s |",
        n(b.size()),
        n(b.kinds().get(Answer.Kind.WAITING)),
        b.failures(),
        n(b.joins().lineAfter() - b.joins().lineBefore()),
        n(order.distinctVisitors()),
        order.outOfOrder(),
        n(order.constrained()),
        n(order.positionExact()),
        b.joins().perSecond(),
        b.passed() ? "**met**" : "**not met**");
    md.line("");
    if (r.direct == 0) {
      md.line("All %s people in the crowd's line joined through the gateway.\n", n(r.viaGateway));
    } else {
      md.line(
          "%s people of the crowd joined through the gateway within its %d s budget; the other %s"
              + " were written straight into Redis with queue-core's own store and enqueue script"
              + " (%.1f s), so the gateway holds a line of %s but created state, if any, only for"
              + " the first %s. Its slope over those is %.2f bytes per visitor.\n",
          n(r.viaGateway),
          CrowdBench.GATEWAY_BUDGET.toSeconds(),
          n(r.direct),
          r.directSeconds,
          n(r.lineLength),
          n(r.viaGateway),
          trend.bytesPerGatewayVisitor());
    }
  }

  private String verdict9() {
    String verdict = trend.flat(r.visitors) ? "**flat**" : "**grows**";
    return trend.conclusive()
        ? verdict
        : verdict
            + " (too few to judge: fewer than "
            + n(HeapTrend.ENOUGH_VISITORS)
            + " joined through the gateway between the readings)";
  }

  private void burst() {
    WarmUp w = r.warmup;
    md.line("## Burst (goal 10)\n");
    md.line(
        "First %s joins on another line (`%s`) warmed the gateway up, in slices of up to %s until"
            + " one was no longer %.0f %% faster than all before (at least %s, at most %s joins):"
            + " %.0f joins/s in the first slice, %.0f in the last; answers other than waiting"
            + " there: %s. Then one visitor opened the crowd's line (`%s`; %d join(s): while a line"
            + " is empty the token bucket may let a newcomer in at once), and the burst followed.\n",
        n(w.joins()),
        CrowdBench.WARMUP,
        n(Lines.WARM_SLICE),
        (WarmUp.STILL_WARMING - 1) * 100,
        n(Run.number("warmup")),
        n(Run.number("max-warmup")),
        w.firstRate(),
        w.lastRate(),
        w.otherStatuses(),
        CrowdBench.CROWD,
        r.openers);
    md.line("| figure | value |\n|---|---:|");
    md.row("joins sent", n(b.size()));
    for (Map.Entry<Answer.Kind, Integer> kind : b.kinds().entrySet()) {
      String name = kind.getKey().name().toLowerCase(Locale.ROOT).replace('_', ' ');
      md.row("answers: " + name, n(kind.getValue()));
    }
    OrderCheck order = b.order();
    md.row("statuses other than a waiting answer", b.joins().otherStatuses());
    md.row(
        "line before → after (ZCARD)",
        n(b.joins().lineBefore()) + " → " + n(b.joins().lineAfter()));
    md.row("waiting answers whose visitor is not in the line", order.missing());
    md.row(
        "distinct visitor ids / waiting answers",
        n(order.distinctVisitors()) + " / " + n(order.waitingAnswers()));
    md.row("joins sent after some other join's answer arrived", n(order.constrained()));
    md.row("of them, behind a score answered earlier: out of order", order.outOfOrder());
    md.row("position answered = final ZRANK + 1", n(order.positionExact()));
    md.row("position answered > final ZRANK + 1", order.positionAbove());
    md.row("time, first request to last answer", f("%.1f s", b.joins().seconds()));
    md.row("throughput", f("%.0f joins/s", b.joins().perSecond()));
    double[] l = b.latencies();
    md.row("latency p50 / p99 / max", f("%.1f", l[0]) + f(" / %.1f", l[1]) + f(" / %.1f ms", l[2]));
    md.line(
        "| CPU during the burst, %% of one core: gateway / Redis / load tool | %.0f / %.0f / %.0f |",
        b.cpu()[0], b.cpu()[1], b.cpu()[2]);
    if (b.firstError() != null) {
      md.row("first request failure", "`" + b.firstError() + "`");
    }
    md.line("");
    long ghosts =
        b.joins().lineAfter() - b.joins().lineBefore() - b.kinds().get(Answer.Kind.WAITING);
    if (ghosts > 0) {
      md.line(
          "%s of the visitors who got no waiting answer still took a place: the gateway gave up on"
              + " its Redis call (`anteroom.redis.command-timeout`, see the log below) after Redis"
              + " had run the script. Such a place is never polled, so the worker would count it as"
              + " abandoned after `abandon-after`.\n",
          n(ghosts));
    }
  }

  private void heap() {
    md.line("## Heap with the line growing (goal 9)\n");
    md.line(
        "At each checkpoint the load stops, `jcmd <pid> GC.class_histogram` runs a full collection"
            + " and counts the live objects; `GC.heap_info` then gives the heap in use.\n");
    md.line(
        "| checkpoint | waiting | joined via gateway | live heap MB | used after GC MB | RSS MB |"
            + " joins/s before it |\n|---|---:|---:|---:|---:|---:|---:|");
    int chunk = 0;
    for (HeapReading reading : r.readings) {
      String rate = "";
      if (reading.label().equals("through the gateway")) {
        rate = f("%.0f", r.chunks.get(chunk++).perSecond());
      } else if (reading.label().equals("after the burst")) {
        rate = f("%.0f", b.joins().perSecond());
      }
      md.row(
          reading.label(),
          n(reading.waiting()),
          n(reading.viaGateway()),
          mb(reading.liveBytes()),
          mb(reading.usedBytes()),
          mb(reading.rssBytes()),
          rate);
    }
    long badChunks = r.chunks.stream().filter(c -> !c.passed()).count();
    md.line(
        "\nFrom %s to %s waiting the live heap changed by %s MB; the least-squares slope over the"
            + " readings with people waiting is %.2f bytes per waiting visitor. A gateway that kept"
            + " even one 22-character id per visitor would grow by roughly 64 bytes each, %s MB"
            + " here.\n",
        n(trend.first().waiting()),
        n(trend.last().waiting()),
        f("%+.1f", trend.growthBytes() / 1e6),
        trend.bytesPerVisitor(),
        n(64L * (trend.last().waiting() - trend.first().waiting()) / 1_000_000));
    md.line(
        "Every stretch of joins after the burst was checked too: "
            + (badChunks == 0
                ? "all answers were waiting answers, their positions were exactly the next places"
                    + " in line, each once, and the line grew by the number of joins.\n"
                : badChunks
                    + " stretch(es) had answers other than waiting, or positions or growth that did"
                    + " not match: see the log.\n"));
    md.line(
        "Classes whose live bytes grew most between those two readings (noise below a few hundred"
            + " KB is expected: caches filled once, JIT-related objects):\n");
    md.line("| class | growth KB |\n|---|---:|");
    trend
        .growingClasses()
        .forEach(c -> md.row("`" + c.getKey() + "`", f("%.1f", c.getValue() / 1e3)));
    md.line(
        "\nRedis `used_memory`: %s MB before anyone joined, %s MB with %s in the crowd's line (and"
            + " the warm-up line), about %.0f bytes per waiting visitor.\n",
        mb(r.redisEmptyMemory),
        mb(r.redisUsedMemory),
        n(r.lineLength),
        (r.redisUsedMemory - r.redisEmptyMemory)
            / (double) Math.max(1, r.lineLength + r.warmup.lineAfter()));
  }

  private void status() {
    StatusSample s = r.status;
    double[] l = JoinLog.percentiles(s.latencies());
    md.line("## Status polls with the whole crowd waiting\n");
    md.line(
        "%s visitors, spread over those who joined through the gateway (deepest position %s),"
            + " polled `GET /_anteroom/status?room=shop` with their tickets, one after another: %s"
            + " waiting answers, %s positions equal to ZRANK + 1, %s line lengths equal to ZCARD"
            + " (%s). Poll latency p50 %.1f ms, p99 %.1f ms. %s\n",
        n(s.polled()),
        n(s.deepest()),
        n(s.waitingAnswers()),
        n(s.positionMatches()),
        n(s.lengthMatches()),
        n(r.lineLength),
        l[0],
        l[1],
        s.passed() ? "**Positions correct.**" : "**Some positions were wrong.**");
    Map<String, Integer> warnings = new LinkedHashMap<>();
    r.warnings.forEach(line -> warnings.merge(warning(line), 1, Integer::sum));
    md.line(
        "The gateway logged %d WARN or ERROR lines during the run%s\n",
        r.warnings.size(), warnings.isEmpty() ? "." : ":");
    warnings.forEach((warning, count) -> md.line("- " + count + " × `" + warning + "`"));
    if (!warnings.isEmpty()) {
      md.line("");
    }
  }

  private void method() {
    md.line("## How it is measured\n");
    md.line(
        "`bench/crowd.sh` builds the gateway and this tool, starts a redis-server, nginx as the"
            + " origin and the real gateway (`java -jar`, `config/anteroom.yml`, a fixed test"
            + " signing key, the queues `%s` and `%s` turned on at start), then runs the tool"
            + " against them. No admission worker runs, so nobody leaves a line and ranks never"
            + " move.",
        CrowdBench.WARMUP, CrowdBench.CROWD);
    md.line(
        "Each join records when it was sent and answered (`System.nanoTime`), the status, the"
            + " position of the JSON body and the visitor id from the ticket cookie's payload"
            + " (`sub`, read without checking the signature).");
    md.line(
        "Order: for every pair where A's answer arrived before B's request was sent, A's score in"
            + " Redis must be lower than B's; a sweep over the joins by send time, keeping the"
            + " highest score answered so far, checks all such pairs.");
    md.line(
        "Heap: live bytes after a full collection at each checkpoint. The verdict \"flat\" needs"
            + " less than %s MB of growth from the first reading with people waiting to the last,"
            + " and a slope that would not add that much over %s visitors either (%.1f bytes per"
            + " visitor). Joins and status polls on the warm-up line first load the code those"
            + " requests use, so one-time class loading is not counted as growth. Throughput and"
            + " latency depend on this machine, which the gateway shares with Redis and the load"
            + " tool: compare them across runs on the same machine only.",
        mb(HeapTrend.TOLERANCE_BYTES),
        n(r.visitors),
        HeapTrend.TOLERANCE_BYTES / (double) r.visitors);
  }

  /**
   * A WARN or ERROR line told apart by level, logger and message only: without timestamps, thread
   * names and the throttled "(N similar warnings suppressed)" tails, so each kind shows once.
   */
  private static String warning(String line) {
    int separator = line.indexOf(" : ");
    String[] words = separator < 0 ? new String[] {""} : line.substring(0, separator).split("\\s+");
    String text = separator < 0 ? line : line.substring(separator + 3);
    text = text.replaceAll("\\s*\\(\\d+ similar warnings suppressed\\)", "");
    String level = line.contains(" ERROR ") ? "ERROR" : "WARN";
    return level + " " + words[words.length - 1] + ": " + text.strip();
  }

  private static String mb(long bytes) {
    return f("%.1f", bytes / 1e6);
  }
}
