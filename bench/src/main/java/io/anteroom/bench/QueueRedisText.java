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

      - **A1 join**: distinct visitors (base64url of 16 random bytes) join one queue by \
      `RedisQueueStore.join` (`join.lua`, for ids minted in the request, which skips the look-up \
      in the line and looks in running and finished only so that a re-sent join changes nothing), \
      whose token bucket is empty and whose clock stands still, so each call takes the "join the \
      back of the line" path; pipelined. Figure: EVALSHA µs ÷ visitors. The measured rate is read \
      from Redis at most once a second per queue (the store reuses what it read lately); with the \
      clock standing still that is once per round.
      - **A1 by enqueue**: the same visitors join a second queue by `RedisQueueStore.enqueue` \
      (`enqueue.lua`, for ids that may have been in the queue before), for comparison.
      - **B1 raw enqueue**: `ZADD key NX seq visitor` + `ZRANK key visitor` per visitor, \
      pipelined the same way. Figure: (ZADD + ZRANK µs) ÷ visitors.
      - **B1 EVALSHA reference**: the same pair inside a two-command script \
      (`bench/src/main/resources/io/anteroom/bench/zadd_nx_zrank.lua`), one EVALSHA per visitor.
      - **Return-only script**: EVALSHA of a script that only returns \
      (`bench/src/main/resources/io/anteroom/bench/return_only.lua`), given five keys and five \
      arguments like the enqueue script: the fixed cost of any script call.
      - **Join floor**: EVALSHA of the four commands a join cannot do without and nothing else \
      (`bench/src/main/resources/io/anteroom/bench/join_floor.lua`), with the join's keys and \
      arguments: what any script keeping this data model costs per newcomer.
      - **A2 admit**: the line left by A1, everyone recently seen, is emptied by `admit` calls; \
      the clock moves one second per call, so each call admits a full batch. Figure: EVALSHA µs ÷ \
      visitors admitted. Each call is its own slice, which gives the longest call exactly \
      (SLOWLOG at threshold 0 would also log every command inside the script, inside the \
      script's own time). Admission leaves the admitted visitors' `seen` entries to be trimmed \
      in bulk once older than abandon-after; so the clock then moves past it and admission calls \
      on the empty line trim them, one batch per call; their time, less that of as many calls \
      with nothing to do, counts in A2 as well.
      - **B2 raw admit**: the B1 line emptied by `ZPOPMIN key batch` + \
      `ZADD running now m1 now m2 …` per batch, taking turns with the admission calls. Figure: \
      (ZPOPMIN + ZADD µs) ÷ visitors.
      - **B2 EVALSHA reference**: the same pair inside a minimal script \
      (`bench/src/main/resources/io/anteroom/bench/zpopmin_zadd.lua`) emptying the line the B1 \
      EVALSHA reference filled, one batch per call.
      - **B2 floor**: what admission with abandonment cannot do without, as one script \
      (`bench/src/main/resources/io/anteroom/bench/admit_floor.lua`: `ZPOPMIN`, `ZMSCORE` on \
      seen, `ZADD` to running), emptying the line the join's floor filled, one batch per call.
      - **Memory**: on a flushed server, `used_memory` less `mem_clients_normal` (INFO memory: \
      the data, without the client buffers pipelining leaves grown) before and after the round's \
      visitors join a fresh line through the store (line, `seen`, state hash: everything), \
      against, on a flushed server again, the same ids added with `ZADD` to one plain sorted set. \
      Figure: bytes ÷ visitors, and the ratio.
      """;

  private QueueRedisText() {}

  static String verdict(List<RoundResult> rounds, int batch) {
    return joinVerdict(rounds)
        + "\n"
        + memoryVerdict(rounds)
        + "\n"
        + admitVerdict(rounds, QueueRedisReport.ADMIT_GOAL)
        + "\n"
        + longestCallVerdict(rounds, batch);
  }

  private static String joinVerdict(List<RoundResult> rounds) {
    double goal = QueueRedisReport.JOIN_GOAL;
    double reference = median(rounds, RoundResult::scriptedEnqueueUsec);
    double ratio = median(rounds, r -> r.joinUsec() / r.scriptedEnqueueUsec());
    Column model = column(rounds, "", RoundResult::join, true);
    Column scripted = column(rounds, "", RoundResult::scriptedEnqueue, true);
    double overhead = median(rounds, r -> r.join().scriptOverheadPer());
    double floor = median(rounds, RoundResult::returnOnlyUsec);
    double calls = median(rounds, r -> r.join().dataCallsPer());
    double refCalls = median(rounds, r -> r.scriptedEnqueue().dataCallsPer());
    double perCall = (overhead - floor) / calls;
    return String.format(
        Locale.ROOT,
        """
        **Goal 6, enqueue: %s** A newcomer's join costs %.2f µs, %.2f× the EVALSHA reference \
        (%.2f µs; %.1f× allows %.2f µs). Beyond it, the join spends: %s. The general path \
        (`enqueue.lua`, for ticket holders) costs %.2f µs, %.2f× the reference.

        Of the join's %.2f µs of Lua + EVALSHA time, %.2f µs is what calling any script with \
        five keys and five arguments costs (the return-only script); the other %.2f µs come with \
        its %.2f `redis.call`s and the Lua between them, about %.2f µs per call (each call turns \
        its arguments into Redis objects, looks the command up, checks it may run and turns the \
        reply back into Lua values). The reference makes %.0f calls. A join needs at least four: \
        the sequence number (`HINCRBY`), the place (`ZADD` waiting), the last-seen time for \
        abandonment (`ZADD` seen) and the line's length for the position and the empty-line \
        admission (`ZCARD`). Those four alone, as one script with nothing else \
        (`join_floor.lua`), cost %.2f µs, %.2f× the reference: %s The join itself costs %.2f× \
        that floor.
        """,
        ratio <= goal
            ? "goal met."
            : String.format(Locale.ROOT, "goal not met: %.2f× over it.", ratio / goal),
        median(rounds, RoundResult::joinUsec),
        ratio,
        reference,
        goal,
        reference * goal,
        CostBreakdown.differences(model, scripted),
        median(rounds, RoundResult::enqueueUsec),
        median(rounds, r -> r.enqueueUsec() / r.scriptedEnqueueUsec()),
        overhead,
        floor,
        overhead - floor,
        calls,
        perCall,
        refCalls,
        median(rounds, RoundResult::joinFloorUsec),
        median(rounds, r -> r.joinFloorUsec() / r.scriptedEnqueueUsec()),
        median(rounds, r -> r.joinFloorUsec() / r.scriptedEnqueueUsec()) <= goal
            ? "within the goal."
            : "the goal is out of reach for any script that keeps these four, whatever the"
                + " Lua between them.",
        median(rounds, r -> r.joinUsec() / r.joinFloorUsec()));
  }

  private static String memoryVerdict(List<RoundResult> rounds) {
    double ratio = median(rounds, RoundResult::memoryRatio);
    return String.format(
        Locale.ROOT,
        """
        **Goal 7, memory: %s** A waiting visitor takes %.1f bytes, everything included, %.2f× \
        the %.1f bytes of one plain sorted-set member of the same id. The visitor is a member of \
        two sorted sets: the line (ordered by place) and `seen` (ordered by last poll, which \
        sweeps and admission read by range); nothing else grows with the line. Admitted visitors \
        also keep their `seen` entry until it is older than abandon-after, when admission trims it.
        """,
        ratio <= QueueRedisReport.MEMORY_GOAL
            ? "goal met."
            : String.format(
                Locale.ROOT, "goal not met: %.2f× over it.", ratio / QueueRedisReport.MEMORY_GOAL),
        median(rounds, RoundResult::waitingBytes),
        ratio,
        median(rounds, RoundResult::memberBytes));
  }

  private static String admitVerdict(List<RoundResult> rounds, double goal) {
    double rawAdmit = median(rounds, RoundResult::rawAdmitUsec);
    double ratio = median(rounds, r -> r.admitUsec() / r.rawAdmitUsec());
    return String.format(
        Locale.ROOT,
        """
        **Goal 8, admit: %s** %.2f µs per admitted visitor is %.2f× raw `ZPOPMIN` + `ZADD` (%.2f µs; \
        %.1f× allows %.2f µs). Of that, %.2f µs are the trimming of the admitted visitors' seen \
        entries once stale: the calls that trimmed them on the empty line, less as many calls \
        with nothing to do (in service the trimming rides on the admission calls of the moment, \
        whose fixed cost is counted already). Beyond the raw pair, the admitting calls spend: %s. The same raw pair run as a \
        minimal script (`zpopmin_zadd.lua`) costs %.2f µs, %.2f× the raw pair: passing each \
        member from one command's reply through Lua into the next command's arguments is what \
        any script admitting in Redis pays; the model costs %.2f× that reference. What admission \
        with abandonment cannot do without (`admit_floor.lua`: the head of the line, its \
        last-seen times by `ZMSCORE`, the move to running or finished) costs %.2f µs, %.2f× the \
        raw pair: %s The model costs %.2f× that floor, for the bucket, the cap, the measured \
        rate and the trimming of seen.
        """,
        ratio <= goal
            ? "goal met."
            : String.format(Locale.ROOT, "goal not met: %.2f× over it.", ratio / goal),
        median(rounds, RoundResult::admitUsec),
        ratio,
        rawAdmit,
        goal,
        rawAdmit * goal,
        median(rounds, RoundResult::trimUsec),
        CostBreakdown.differences(
            column(rounds, "", RoundResult::admit, true),
            column(rounds, "", RoundResult::rawAdmit, false)),
        median(rounds, RoundResult::scriptedAdmitUsec),
        median(rounds, r -> r.scriptedAdmitUsec() / r.rawAdmitUsec()),
        median(rounds, r -> r.admitUsec() / r.scriptedAdmitUsec()),
        median(rounds, RoundResult::admitFloorUsec),
        median(rounds, r -> r.admitFloorUsec() / r.rawAdmitUsec()),
        median(rounds, r -> r.admitFloorUsec() / r.rawAdmitUsec()) <= goal
            ? "within the goal."
            : "the goal is out of reach for any script that judges abandonment per visitor"
                + " this way.",
        median(rounds, r -> r.admitUsec() / r.admitFloorUsec()));
  }

  private static String longestCallVerdict(List<RoundResult> rounds, int batch) {
    Spread longest = Spread.of(rounds, RoundResult::longestAdmitUsec);
    return String.format(
        Locale.ROOT,
        """
        **Goal 8, longest admit call: %s** %.0f µs of server time (median of the rounds' \
        longest calls; %.0f–%.0f µs; the median call took %.0f µs), with the batch of %d \
        visitors per call that the goal assumes (`admit-batch`, default 100; the worker makes up \
        to 20 calls per queue per tick, so the batch does not cap the rate). %s
        """,
        longest.median() < QueueRedisReport.LONGEST_CALL_GOAL ? "goal met." : "goal not met.",
        longest.median(),
        longest.min(),
        longest.max(),
        median(rounds, RoundResult::medianAdmitCallUsec),
        batch,
        longestNote(longest, median(rounds, RoundResult::medianAdmitCallUsec)));
  }

  /**
   * Every call admits the same batch, so a longest call far above the median is redis-server losing
   * the CPU mid-call, not the call's work.
   */
  private static String longestNote(Spread longest, double medianCall) {
    if (longest.max() < QueueRedisReport.LONGEST_CALL_GOAL) {
      return "No call held Redis for a millisecond.";
    }
    if (longest.median() > 3 * medianCall) {
      return String.format(
          Locale.ROOT,
          "Every call admits one batch of the same size, so the longest calls, %.0f× the median"
              + " call, are redis-server losing the CPU mid-call (see the host load above), not"
              + " the calls' work; on a quiet machine the longest call is close to the median.",
          longest.median() / medianCall);
    }
    return "Redis serves nothing else meanwhile; a smaller admit batch shortens the call.";
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
                column(rounds, "`join.lua`", RoundResult::join, true),
                column(rounds, "`enqueue.lua`", RoundResult::enqueue, true),
                column(rounds, "EVALSHA ref", RoundResult::scriptedEnqueue, true),
                column(rounds, "return-only script", RoundResult::returnOnly, true),
                column(rounds, "join floor", RoundResult::joinFloor, true),
                column(rounds, "raw", RoundResult::rawEnqueue, false)))
        + '\n'
        + "The admission columns cover the admitting calls; the calls trimming seen later are in"
        + " the figures above.\n\n"
        + CostBreakdown.table(
            "per admitted visitor",
            List.of(
                column(rounds, "`admit.lua`", RoundResult::admit, true),
                column(rounds, "EVALSHA admit ref", RoundResult::scriptedAdmit, true),
                column(rounds, "admit floor", RoundResult::admitFloor, true),
                column(rounds, "raw", RoundResult::rawAdmit, false)))
        + String.format(
            Locale.ROOT,
            "%nA command run once per batch of %d shows as %s calls per visitor.%n",
            batch,
            CostBreakdown.calls(1.0 / batch));
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
