package io.anteroom.bench;

import java.util.stream.Collectors;

/**
 * The verdicts of a {@link QueueRedisReport}: for each goal, met or not, by how much, and what the
 * same run measured about why.
 */
final class QueueRedisVerdicts {

  private final QueueRedisReport report;

  QueueRedisVerdicts(QueueRedisReport report) {
    this.report = report;
  }

  void write(Markdown md) {
    double ref = report.m("EVALSHA ref");
    double ratio = report.m("join", "EVALSHA ref");
    double overhead = report.median(r -> r.phase("join").scriptOverheadPer());
    double floor = report.m("return-only script");
    double calls = report.median(r -> r.phase("join").dataCallsPer());
    double refCalls = report.median(r -> r.phase("scriptedEnqueue").dataCallsPer());
    double floorRatio = report.m("join floor", "EVALSHA ref");
    md.line(
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
        verdict(ratio, QueueRedisReport.JOIN_GOAL),
        report.m("join"),
        ratio,
        ref,
        QueueRedisReport.JOIN_GOAL,
        ref * QueueRedisReport.JOIN_GOAL,
        report.differences("join", "scriptedEnqueue"),
        report.m("enqueue"),
        report.m("enqueue", "EVALSHA ref"),
        overhead,
        floor,
        overhead - floor,
        calls,
        (overhead - floor) / calls,
        refCalls,
        report.m("join floor"),
        floorRatio,
        floorRatio <= QueueRedisReport.JOIN_GOAL ? "within the goal." : JOIN_FLOOR,
        report.m("join", "join floor"));
    double memory = report.m("bytes/waiting", "bytes/member");
    md.line(
        """
        **Goal 7, memory: %s** A waiting visitor takes %.1f bytes, everything included, %.2f× \
        the %.1f bytes of one plain sorted-set member of the same id. The visitor is a member of \
        two sorted sets: the line (ordered by place) and `seen` (ordered by last poll, which \
        sweeps and admission read by range); nothing else grows with the line. Admitted visitors \
        also keep their `seen` entry until it is older than abandon-after, when admission trims it.
        """,
        verdict(memory, QueueRedisReport.MEMORY_GOAL),
        report.m("bytes/waiting"),
        memory,
        report.m("bytes/member"));
    double raw = report.m("raw ZPOPMIN+ZADD");
    double admit = report.m("admit/visitor", "raw ZPOPMIN+ZADD");
    double admitFloor = report.m("admit floor", "raw ZPOPMIN+ZADD");
    md.line(
        """
        **Goal 8, admit: %s** %.2f µs per admitted visitor is %.2f× raw `ZPOPMIN` + `ZADD` (%.2f µs; \
        %.1f× allows %.2f µs). Of that, %.2f µs are the trimming of the admitted visitors' seen \
        entries once stale: the calls that trimmed them on the empty line, less as many calls \
        with nothing to do (in service the trimming rides on the admission calls of the moment, \
        whose fixed cost is counted already). Beyond the raw pair, the admitting calls spend: %s. \
        The same raw pair run as a minimal script (`zpopmin_zadd.lua`) costs %.2f µs, %.2f× the \
        raw pair: passing each member from one command's reply through Lua into the next \
        command's arguments is what any script admitting in Redis pays; the model costs %.2f× \
        that reference. What admission with abandonment cannot do without (`admit_floor.lua`: \
        the head of the line, its last-seen times by `ZMSCORE`, the move to running or finished) \
        costs %.2f µs, %.2f× the raw pair: %s The model costs %.2f× that floor, for the bucket, \
        the cap, the measured rate and the trimming of seen.
        """,
        verdict(admit, QueueRedisReport.ADMIT_GOAL),
        report.m("admit/visitor"),
        admit,
        raw,
        QueueRedisReport.ADMIT_GOAL,
        raw * QueueRedisReport.ADMIT_GOAL,
        report.m("trim/visitor"),
        report.differences("admit", "rawAdmit"),
        report.m("EVALSHA admit ref"),
        report.m("EVALSHA admit ref", "raw ZPOPMIN+ZADD"),
        report.m("admit/visitor", "EVALSHA admit ref"),
        report.m("admit floor"),
        admitFloor,
        admitFloor <= QueueRedisReport.ADMIT_GOAL ? "within the goal." : ADMIT_FLOOR,
        report.m("admit/visitor", "admit floor"));
    // Every call admits the same batch: a longest call far above the median is redis-server
    // losing the CPU mid-call, not the call's work.
    Spread longest = Spread.of(report.rounds, r -> QueueRedisReport.value("longest admit call", r));
    double call = report.m("median admit call");
    String note = longestNote(longest, call);
    String met =
        longest.median() < QueueRedisReport.LONGEST_CALL_GOAL ? "goal met." : "goal not met.";
    md.line(
        """
        **Goal 8, longest admit call: %s** %.0f µs of server time (median of the report.rounds' \
        longest calls; %.0f–%.0f µs; the median call took %.0f µs), with the batch of %d \
        visitors per call that the goal assumes (`admit-batch`, default 100; the worker makes up \
        to 20 calls per queue per tick, so the batch does not cap the rate). %s
        """,
        met, longest.median(), longest.min(), longest.max(), call, Run.number("batch"), note);
    roomVerdict(md);
  }

  /** Why the longest admission call took what it took, for the verdict on it. */
  private static String longestNote(Spread longest, double medianCall) {
    return longest.max() < QueueRedisReport.LONGEST_CALL_GOAL
        ? "No call held Redis for a millisecond."
        : longest.median() > 3 * medianCall
            ? Markdown.f(CPU_LOST, longest.median() / medianCall)
            : "Redis serves nothing else meanwhile; a smaller admit batch shortens the call.";
  }

  private void roomVerdict(Markdown md) {
    double ratio = report.m("room admit/visitor", "admit/visitor");
    Spread longest =
        Spread.of(report.rounds, r -> QueueRedisReport.value("longest room admit call", r));
    double call = report.m("median room admit call");
    md.line(
        """
        **Room admission: %s** Admitting across a room's three queues within its room-wide \
        limits costs %.2f µs per admitted visitor, %.2f× one queue's admission (%.2f µs; %.1f× \
        allows %.2f µs), trimming included (%.2f µs of it). Beyond one queue's admission, the \
        room's calls spend: %s. A room call does per queue what `admit.lua` does once (bucket, \
        running count, head of the line, trimming, counters, measured rate), a third of the batch \
        each, and the room's own bucket, sessions and shares on top. **Longest room admission \
        call: %s** %.0f µs (median of the report.rounds' longest calls; %.0f–%.0f µs; the median call \
        took %.0f µs) for a batch of %d over three queues, against %.0f µs (median call %.0f µs) \
        for one queue's calls in the same run. %s
        """,
        verdict(ratio, QueueRedisReport.ROOM_ADMIT_GOAL),
        report.m("room admit/visitor"),
        ratio,
        report.m("admit/visitor"),
        QueueRedisReport.ROOM_ADMIT_GOAL,
        report.m("admit/visitor") * QueueRedisReport.ROOM_ADMIT_GOAL,
        report.m("room trim/visitor"),
        report.differences("roomAdmit", "admit"),
        longest.median() < QueueRedisReport.LONGEST_CALL_GOAL ? "goal met." : "goal not met.",
        longest.median(),
        longest.min(),
        longest.max(),
        call,
        Run.number("batch"),
        report.m("longest admit call"),
        report.m("median admit call"),
        longestNote(longest, call));
    growingVerdict(md);
  }

  /** The longest call while running grows without end, against the steady calls'. */
  private void growingVerdict(Markdown md) {
    Spread longest =
        Spread.of(report.rounds, r -> QueueRedisReport.value("longest growing admit call", r));
    md.line(
        """
        **Running sets that keep growing.** Admitting the same line while no session ends, so \
        running and the room's sessions grow to %d members, the longest call took %.0f µs \
        (median of the report.rounds' longest calls; %.0f–%.0f µs; median call %.0f µs), with %s \
        members in running before it in the report.rounds (Redis doubles a sorted set's hash table as \
        it passes 8,192 and 16,384 members), against %.0f µs for the longest call with sessions \
        ending in the same run. A running set of steady service stays near its size (max-active, \
        total-active-users, sessions ending); one that passes a power of two costs a one-off \
        slower call.
        """,
        Run.number("visitors"),
        longest.median(),
        longest.min(),
        longest.max(),
        report.m("median growing admit call"),
        report.rounds.stream()
            .map(
                r ->
                    Markdown.f(
                        "%.0f", QueueRedisReport.value("running before longest growing call", r)))
            .collect(Collectors.joining(", ")),
        report.m("longest admit call"));
  }

  private static final String JOIN_FLOOR =
      "the goal is out of reach for any script that keeps these four, whatever the Lua between"
          + " them.";
  private static final String ADMIT_FLOOR =
      "the goal is out of reach for any script that judges abandonment per visitor this way.";
  private static final String CPU_LOST =
      "Every call admits one batch of the same size, so the longest calls, %.0f× the median call,"
          + " are redis-server losing the CPU mid-call (see the host load above), not the calls'"
          + " work; on a quiet machine the longest call is close to the median.";

  private static String verdict(double ratio, double goal) {
    return ratio <= goal ? "goal met." : Markdown.f("goal not met: %.2f× over it.", ratio / goal);
  }
}
