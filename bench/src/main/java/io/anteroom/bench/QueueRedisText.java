package io.anteroom.bench;

import io.anteroom.bench.CostBreakdown.Column;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/** The prose of the results file: method, verdict and where the time goes. */
final class QueueRedisText {

  static final String METHOD =
      """
      ## How it is measured

      The benchmark starts its own redis-server and measures in short slices: `CONFIG RESETSTAT`, \
      the slice's commands, `INFO commandstats`, summed per phase. The `usec` there is the time \
      the server spent executing each command, without network or client time. Commands a script \
      runs count both inside the script's EVALSHA time and under their own names, which gives the \
      breakdown further down. The time is wall-clock time inside the command, so whatever takes \
      the CPU from redis-server mid-command (other processes, a host stealing time from this \
      virtual machine) inflates it. To let such stretches fall on both sides alike, the sides \
      take turns slice by slice instead of running one phase after the other, and which side \
      starts alternates between rounds. Even so, in trial runs on a loaded machine script calls \
      were inflated more than raw commands, so read the figures with the host load above and \
      compare runs only on a quiet machine. Every round starts on a flushed server. The Lua \
      scripts are loaded before the first round, so no call pays for compiling them.

      Side A is the queue model through `RedisQueueStore`, side B the references, on keys of \
      their own:

      - **A1 enqueue**: distinct visitors (base64url of 16 random bytes) join one queue whose \
      token bucket is empty and whose clock stands still, so each call takes the script's "join \
      the line" path; pipelined. Figure: EVALSHA µs ÷ visitors.
      - **B1 raw enqueue**: `ZADD key NX seq visitor` + `ZRANK key visitor` per visitor, \
      pipelined the same way. Figure: (ZADD + ZRANK µs) ÷ visitors.
      - **B1 EVALSHA reference**: the same pair inside a two-command script \
      (`bench/src/main/resources/io/anteroom/bench/zadd_nx_zrank.lua`), one EVALSHA per visitor.
      - **Return-only script**: EVALSHA of a script that only returns \
      (`bench/src/main/resources/io/anteroom/bench/return_only.lua`), given five keys and five \
      arguments like the enqueue script: the fixed cost of any script call.
      - **A2 admit**: the line left by A1, everyone recently seen, is emptied by `admit` calls; \
      the clock moves one second per call, so each call admits a full batch. Figure: EVALSHA µs ÷ \
      visitors admitted. Each call is its own slice, which gives the longest call exactly \
      (SLOWLOG at threshold 0 would also log every command inside the script, inside the \
      script's own time).
      - **B2 raw admit**: the B1 line emptied by `ZPOPMIN key batch` + \
      `ZADD running now m1 now m2 …` per batch, taking turns with the admission calls. Figure: \
      (ZPOPMIN + ZADD µs) ÷ visitors.
      """;

  private QueueRedisText() {}

  static String verdict(List<RoundResult> rounds, double goal) {
    return enqueueVerdict(rounds, goal)
        + "\n"
        + admitVerdict(rounds, goal)
        + "\n"
        + longestCallVerdict(rounds);
  }

  private static String enqueueVerdict(List<RoundResult> rounds, double goal) {
    double raw = median(rounds, RoundResult::rawEnqueueUsec);
    double ratio = median(rounds, r -> r.enqueueUsec() / r.rawEnqueueUsec());
    double scriptedRatio = median(rounds, r -> r.enqueueUsec() / r.scriptedEnqueueUsec());
    Column model = column(rounds, "", RoundResult::enqueue, true);
    double overhead = median(rounds, r -> r.enqueue().scriptOverheadPer());
    double floor = median(rounds, RoundResult::returnOnlyUsec);
    double calls = median(rounds, r -> r.enqueue().dataCallsPer());
    return String.format(
        Locale.ROOT,
        """
        **Enqueue: %s** %.2f µs per enqueue is %.2f× raw `ZADD NX` + `ZRANK` (%.2f µs; %.1f× \
        allows %.2f µs) and %.2f× the same pair run by EVALSHA (%.2f µs). Beyond the raw pair it \
        spends: %s. Beyond the EVALSHA reference: %s.

        Of its %.2f µs of Lua + EVALSHA time, %.2f µs is what calling any script with five keys \
        and five arguments costs (the return-only script). The other %.2f µs come with its %.0f \
        `redis.call`s and the Lua between them, about %.2f µs per call: each call turns its \
        arguments into Redis objects, looks the command up, checks it may run and turns the \
        reply back into Lua values.
        """,
        enqueueOutcome(ratio, scriptedRatio, goal),
        median(rounds, RoundResult::enqueueUsec),
        ratio,
        raw,
        goal,
        raw * goal,
        scriptedRatio,
        median(rounds, RoundResult::scriptedEnqueueUsec),
        CostBreakdown.differences(model, column(rounds, "", RoundResult::rawEnqueue, false)),
        CostBreakdown.differences(model, column(rounds, "", RoundResult::scriptedEnqueue, true)),
        overhead,
        floor,
        overhead - floor,
        calls,
        (overhead - floor) / calls);
  }

  private static String admitVerdict(List<RoundResult> rounds, double goal) {
    double rawAdmit = median(rounds, RoundResult::rawAdmitUsec);
    double ratio = median(rounds, r -> r.admitUsec() / r.rawAdmitUsec());
    return String.format(
        Locale.ROOT,
        """
        **Admit: %s** %.2f µs per admitted visitor is %.2f× raw `ZPOPMIN` + `ZADD` (%.2f µs; \
        %.1f× allows %.2f µs). Beyond the raw pair it spends: %s.
        """,
        ratio <= goal
            ? "goal met."
            : String.format(Locale.ROOT, "goal not met: %.2f× over it.", ratio / goal),
        median(rounds, RoundResult::admitUsec),
        ratio,
        rawAdmit,
        goal,
        rawAdmit * goal,
        CostBreakdown.differences(
            column(rounds, "", RoundResult::admit, true),
            column(rounds, "", RoundResult::rawAdmit, false)));
  }

  private static String longestCallVerdict(List<RoundResult> rounds) {
    Spread longest = Spread.of(rounds, RoundResult::longestAdmitUsec);
    return String.format(
        Locale.ROOT,
        """
        **Longest admit call**: %.0f µs of server time for one batch (median of the rounds' \
        longest calls; %.0f–%.0f µs; the median call took %.0f µs). %s
        """,
        longest.median(),
        longest.min(),
        longest.max(),
        median(rounds, RoundResult::medianAdmitCallUsec),
        longest.max() < 1000
            ? "No call held Redis for a millisecond."
            : "Redis serves nothing else meanwhile; a smaller admit batch shortens the call.");
  }

  static String breakdown(List<RoundResult> rounds, int batch) {
    return "## Where the time goes\n\n"
        + "Median µs per operation of each command the server ran, with (calls per operation). "
        + "\""
        + CostBreakdown.OVERHEAD
        + "\" is the script's EVALSHA time minus the commands it ran: the Lua code between the "
        + "calls, converting replies to Lua values and back, and the EVALSHA call itself.\n\n"
        + CostBreakdown.table(
            "per enqueue",
            List.of(
                column(rounds, "`enqueue.lua`", RoundResult::enqueue, true),
                column(rounds, "EVALSHA ref", RoundResult::scriptedEnqueue, true),
                column(rounds, "return-only script", RoundResult::returnOnly, true),
                column(rounds, "raw", RoundResult::rawEnqueue, false)))
        + '\n'
        + CostBreakdown.table(
            "per admitted visitor",
            List.of(
                column(rounds, "`admit.lua`", RoundResult::admit, true),
                column(rounds, "raw", RoundResult::rawAdmit, false)))
        + String.format(
            Locale.ROOT,
            "%nA command run once per batch of %d shows as %s calls per visitor.%n",
            batch,
            CostBreakdown.calls(1.0 / batch));
  }

  private static String enqueueOutcome(double raw, double scripted, double goal) {
    if (raw <= goal) {
      return "goal met.";
    }
    if (scripted <= goal) {
      return String.format(
          Locale.ROOT,
          "goal met against the EVALSHA reference, not against raw commands (%.2f× over).",
          raw / goal);
    }
    return String.format(
        Locale.ROOT,
        "goal not met: %.2f× over it against raw commands, %.2f× against the EVALSHA reference.",
        raw / goal,
        scripted / goal);
  }

  private static Column column(
      List<RoundResult> rounds,
      String label,
      Function<RoundResult, PhaseResult> phase,
      boolean script) {
    return new Column(label, rounds.stream().map(phase).toList(), script);
  }

  private static double median(List<RoundResult> rounds, ToDoubleFunction<RoundResult> figure) {
    return Spread.of(rounds, figure).median();
  }
}
