package io.anteroom.bench;

import io.anteroom.bench.RoomClusterBench.LayoutRun;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The results of {@link RoomClusterBench} as Markdown: each layout's share of script time and of
 * CPU per primary, the one room's ceiling on one primary, and every round.
 */
final class RoomClusterReport {

  private static final String METHOD =
      """
      ## How it is measured

      A Redis Cluster of three primaries, each with one replica (test-support's `RedisCluster`, six \
      redis-server processes on this machine), reached through the Cluster client the apps use. \
      Each round runs the same load in both layouts, which runs first alternating between rounds, \
      each on flushed primaries: the round's visitors join the items' queues in turn (`join.lua`, \
      pipelined, queues on and their buckets empty, so everyone waits), then admission calls, the \
      clock moving one second a step, let everyone in. **One room**: room `shop` with room-wide \
      limits (`new-users-per-minute` one batch a second, `total-active-users` above everyone), \
      items `1`…`N` under the hash tag `{shop}`, one `room_admit.lua` call a step sharing a batch \
      over the items. **Room per item**: the same items as rooms `shop-1`…`shop-N` of one item \
      each, the way a room's items were spread before room-wide limits (`{room:item}`), one \
      `admit.lua` call per item a step. Per primary, `CONFIG RESETSTAT` before and `INFO \
      commandstats` after (EVALSHA + EVAL server time, the commands the scripts ran included, \
      without network or client time), and `INFO cpu` (user + system of the process, so reading \
      and writing the network, feeding the replica and the cluster bus too).
      """;

  private final List<LayoutRun> runs;
  private final int visitors;
  private final int[] oneRoomItems;
  private final int[] perItemItems;

  RoomClusterReport(List<LayoutRun> runs, int visitors, int[] oneRoomItems, int[] perItemItems) {
    this.runs = List.copyOf(runs);
    this.visitors = visitors;
    this.oneRoomItems = oneRoomItems.clone();
    this.perItemItems = perItemItems.clone();
  }

  static String roundLine(int round, LayoutRun one, LayoutRun per, int visitors) {
    return (round < 1 ? "warm-up" : "round " + round)
        + ": one room "
        + shares(one, r -> r.scriptUsec(), one.totalUsec())
        + " of script time; room per item "
        + shares(per, r -> r.scriptUsec(), per.totalUsec())
        + Markdown.f(
            "; one room's busiest primary %.0f visitors/s of script time", ceiling(one, visitors));
  }

  String markdown(String load, String version, int warmup) {
    Markdown md = new Markdown();
    md.line("# One room on a Redis Cluster: where its load lands\n");
    md.line("| | |\n|---|---|");
    md.row("date (UTC)", Instant.now().truncatedTo(ChronoUnit.SECONDS));
    md.row("command", "`" + Run.command() + "`");
    md.row("machine", Run.machine());
    md.row("host load", "load average " + load + " at start");
    md.row("Redis", version + ", a Cluster of 3 primaries + 3 replicas started by the benchmark");
    md.row("Java", Run.java());
    md.row(
        "workload",
        "%d rounds after %d discarded warm-up; %d visitors per layout and round, each joining and admitted once; %d items; admit batch %d"
            .formatted(runs.size() / 2, warmup, visitors, items(), batch()));
    md.line("\n" + METHOD);
    md.line("## Results (median of %d rounds)\n", runs.size() / 2);
    md.line(
        "| layout | primary | items on it | share of script time | share of CPU | script µs per visitor | CPU µs per visitor |");
    md.line("|---|---|---:|---:|---:|---:|---:|");
    layoutRows(md, RoomClusterBench.ONE_ROOM, oneRoomItems);
    layoutRows(md, RoomClusterBench.ROOM_PER_ITEM, perItemItems);
    String one = RoomClusterBench.ONE_ROOM;
    double perVisitor = median(one, r -> (double) r.busiest().scriptUsec() / visitors);
    double cpuPerVisitor = median(one, r -> maxCpu(r) / visitors * 1e6);
    md.line(
        """

        **One room's load: %s of its script time (%s of the primaries' CPU) on one of 3 \
        primaries; the same %d items as %d rooms: %s of script time (%s of CPU), the rooms falling \
        %s on the primaries by their hash slots.** On its primary the room took %.1f µs of CPU \
        per visitor (one join and one admission; the whole process: scripts, network, feeding the \
        replica, cluster bus), so one room cannot take more than about %,.0f joins + admissions a \
        second on this machine, whatever the number of primaries (by script time alone, %.1f µs, \
        about %,.0f). In the run itself %,d visitors joined and were admitted in %.1f s (%,.0f a \
        second, the client and six redis-servers sharing two cores), the room's primary busy %s \
        of that time.
        """,
        shareText(one, true, true),
        shareText(one, true, false),
        items(),
        items(),
        shareText(RoomClusterBench.ROOM_PER_ITEM, false, true),
        shareText(RoomClusterBench.ROOM_PER_ITEM, false, false),
        Arrays.stream(perItemItems)
            .mapToObj(Integer::toString)
            .reduce((a, b) -> a + " / " + b)
            .orElse(""),
        cpuPerVisitor,
        thousands(1e6 / cpuPerVisitor),
        perVisitor,
        thousands(1e6 / perVisitor),
        visitors,
        median(one, LayoutRun::seconds),
        median(one, r -> visitors / r.seconds()),
        pct(median(one, r -> maxCpu(r) / r.seconds())));
    md.line("## Per round\n");
    md.line(
        "| round | layout | share of script time per primary | share of CPU per primary | script µs per visitor, all primaries | seconds |");
    md.line("|---:|---|---|---|---:|---:|");
    for (int i = 0; i < runs.size(); i++) {
      LayoutRun r = runs.get(i);
      md.row(
          i / 2 + 1,
          r.layout(),
          shares(r, s -> s.scriptUsec(), r.totalUsec()),
          shares(r, ShardLoad::cpuSeconds, r.totalCpu()),
          Markdown.f("%.2f", (double) r.totalUsec() / visitors),
          Markdown.f("%.1f", r.seconds()));
    }
    return md.line("\nPrimaries in the order of their slots (0–5460, 5461–10922, 10923–16383).")
        .toString();
  }

  private void layoutRows(Markdown md, String layout, int[] items) {
    for (int p = 0; p < items.length; p++) {
      int primary = p;
      md.row(
          layout,
          "primary " + (p + 1),
          items[p],
          pct(median(layout, r -> share(r, primary, true))),
          pct(median(layout, r -> share(r, primary, false))),
          Markdown.f(
              "%.2f",
              median(layout, r -> (double) r.shards().get(primary).scriptUsec() / visitors)),
          Markdown.f(
              "%.2f", median(layout, r -> r.shards().get(primary).cpuSeconds() * 1e6 / visitors)));
    }
  }

  /**
   * The median share of script time (or CPU) of the busiest primary alone, "100 %", or of each, "a
   * / b / c %" in the primaries' order.
   */
  private String shareText(String layout, boolean busiestOnly, boolean script) {
    int shards = runs.get(0).shards().size();
    double[] median = new double[shards];
    for (int p = 0; p < shards; p++) {
      int primary = p;
      median[p] = median(layout, r -> share(r, primary, script));
    }
    if (busiestOnly) {
      return pct(Arrays.stream(median).max().orElse(0));
    }
    StringBuilder text = new StringBuilder();
    for (double m : median) {
      text.append(text.length() == 0 ? "" : " / ").append(Markdown.f("%.0f", 100 * m));
    }
    return text + " %";
  }

  private static double share(LayoutRun r, int primary, boolean script) {
    ShardLoad s = r.shards().get(primary);
    return script ? (double) s.scriptUsec() / r.totalUsec() : s.cpuSeconds() / r.totalCpu();
  }

  private static double maxCpu(LayoutRun r) {
    return r.shards().stream().mapToDouble(ShardLoad::cpuSeconds).max().orElse(0);
  }

  private static double ceiling(LayoutRun r, int visitors) {
    return visitors / (r.busiest().scriptUsec() / 1e6);
  }

  private static String shares(LayoutRun r, ToDoubleFunction<ShardLoad> f, double total) {
    StringBuilder text = new StringBuilder();
    for (ShardLoad s : r.shards()) {
      text.append(text.length() == 0 ? "" : " / ")
          .append(Markdown.f("%.0f", 100 * f.applyAsDouble(s) / total));
    }
    return text + " %";
  }

  private double median(String layout, ToDoubleFunction<LayoutRun> figure) {
    return Spread.of(runs.stream().filter(r -> r.layout().equals(layout)).toList(), figure)
        .median();
  }

  private int items() {
    return Arrays.stream(oneRoomItems).sum();
  }

  private static int batch() {
    return Run.number("batch");
  }

  /** Rounded to thousands: the ceilings are estimates, not counts. */
  private static double thousands(double value) {
    return Math.round(value / 1000) * 1000.0;
  }

  private static String pct(double share) {
    return Markdown.f("%.0f %%", 100 * share);
  }
}
