package io.anteroom.bench.crowd;

import java.time.Duration;

/**
 * CPU time used so far by the gateway, Redis and this tool, all threads, user and system; read
 * around a phase to tell which of them the CPUs went to.
 *
 * @param used the gateway's, Redis's and this tool's
 * @param at when read ({@link System#nanoTime()})
 */
record CpuClock(Duration[] used, long at) {

  static CpuClock read(Services services) {
    long[] pids = {services.gatewayPid(), services.redisPid(), ProcessHandle.current().pid()};
    Duration[] used = new Duration[pids.length];
    for (int i = 0; i < pids.length; i++) {
      used[i] =
          ProcessHandle.of(pids[i]).flatMap(p -> p.info().totalCpuDuration()).orElse(Duration.ZERO);
    }
    return new CpuClock(used, System.nanoTime());
  }

  /** Percent of one core each used since {@code before}: gateway, Redis, tool. */
  double[] percentSince(CpuClock before) {
    double wall = (at - before.at) / 1e9;
    double[] percent = new double[used.length];
    for (int i = 0; i < used.length; i++) {
      percent[i] = wall <= 0 ? 0 : 100.0 * used[i].minus(before.used[i]).toNanos() / 1e9 / wall;
    }
    return percent;
  }
}
