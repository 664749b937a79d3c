package io.anteroom.bench.crowd;

import io.anteroom.bench.Markdown;
import io.anteroom.bench.Run;
import java.time.Instant;
import java.util.List;

/** The flash crowd's results file: the run, the capacity held cold and warm, every step. */
final class FlashReport {

  private FlashReport() {}

  static String render(List<FlashStep> steps) {
    int cold = highestHeld(steps, "cold");
    int warm = highestHeld(steps, "warm");
    Markdown md = new Markdown();
    md.line("# An open-loop flash crowd against one gateway core");
    md.line("");
    md.line("| | |");
    md.line("|---|---|");
    md.line("| written (UTC) | %s |", Instant.now());
    md.line("| command | `%s` |", Run.command());
    md.line("| machine | %s; load average at the end %s |", Run.machine(), Run.loadAverage());
    md.line("| Java | %s |", Run.java());
    md.line("| gateway | %s |", System.getProperty("bench.gateway.note", "unknown"));
    md.line(
        "| load | new visitors at a fixed rate for %s s a step, whatever the answers (`GET"
            + " /products/<item>`, `Accept: application/json`, no cookie), each step on a line of"
            + " its own while a worker admits %s a second; every visitor told to wait asks"
            + " `/_anteroom/status` again after the `pollAfterSeconds` of its last answer, with"
            + " its ticket, until %s s after the arrivals end; the tool's own NIO HTTP/1.1 client"
            + " on one thread, up to %s keep-alive connections; latency from when each request"
            + " was due; a timeout 10 s after it |",
        Run.option("step"), Run.option("rate"), Run.option("hold"), Run.option("connections"));
    md.line("");
    md.line("## Capacity");
    md.line("");
    md.line(
        "The worker admits %s a second: below that rate nearly every newcomer is let in at once"
            + " (a pass and the origin's page); above it a line forms, and its front polls every"
            + " 2 s (`pollAfterSeconds` is a tenth of the wait, at least 2 s).",
        Run.option("rate"));
    md.line("");
    md.line(
        "A step holds when its joins' p99 is under %.0f ms and every join and poll got a proper"
            + " answer (a waiting answer with a ticket, or let in). Cold: each step on a gateway"
            + " just started, from the lowest rate up, until one did not hold. Warm: one more"
            + " gateway, a warm-up step at the lowest rate, then the ladder until a step did not"
            + " hold, and the gap to it halved.",
        FlashStep.HELD_P99_MS);
    md.line("");
    md.row(
        "gateway",
        "highest arrival rate one core held",
        "gateway cores per 100,000 arrivals a second");
    md.row("---", "---:", "---:");
    md.row("cold (the JVM just started)", perSecond(cold), sizing(cold));
    md.row("warm", perSecond(warm), sizing(warm));
    md.line("");
    md.line("## Steps");
    md.line("");
    md.row(
        "phase",
        "arrivals/s",
        "joins",
        "join p50 (ms)",
        "join p99 (ms)",
        "join max (ms)",
        "polls answered/s",
        "poll interval asked (s, mean)",
        "poll p99 (ms)",
        "let in at once",
        "let in after waiting",
        "errors",
        "gateway CPU (cores)",
        "Redis CPU (cores)",
        "tool CPU (cores)",
        "held");
    md.row(
        "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:",
        "---:", "---:", "---:", "---:", "---");
    for (FlashStep s : steps) {
      md.row(
          s.phase(),
          Markdown.n(s.perSecond()),
          Markdown.n(s.joins()),
          Markdown.f("%.1f", s.joinP50Ms()),
          Markdown.f("%.1f", s.joinP99Ms()),
          Markdown.f("%.1f", s.joinMaxMs()),
          Markdown.n(Math.round(s.pollsPerSecond())),
          s.pollInterval() == 0 ? "–" : Markdown.f("%.1f", s.pollInterval()),
          s.pollsPerSecond() == 0 ? "–" : Markdown.f("%.1f", s.pollP99Ms()),
          Markdown.n(s.atOnce()),
          Markdown.n(s.admittedAfterWaiting()),
          s.joinErrors() + s.pollErrors() == 0
              ? "0"
              : s.joinErrors() + " joins, " + s.pollErrors() + " polls: " + s.firstError(),
          Markdown.f("%.2f", s.gatewayCores()),
          Markdown.f("%.2f", s.redisCores()),
          Markdown.f("%.2f", s.toolCores()),
          s.held() ? "yes" : "**no**");
    }
    return md.toString();
  }

  /** The highest rate held among the steps of {@code phase}, 0 for none. */
  static int highestHeld(List<FlashStep> steps, String phase) {
    return steps.stream()
        .filter(s -> s.phase().equals(phase) && s.held())
        .mapToInt(FlashStep::perSecond)
        .max()
        .orElse(0);
  }

  private static String perSecond(int rate) {
    return rate == 0 ? "none of the steps" : Markdown.n(rate) + " a second";
  }

  private static String sizing(int rate) {
    return rate == 0 ? "–" : Long.toString((100_000 + rate - 1) / rate);
  }
}
