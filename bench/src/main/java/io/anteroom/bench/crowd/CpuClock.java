package io.anteroom.bench.crowd;

import java.time.Duration;

/**
 * CPU time used so far by the gateway, Redis and this tool, all threads, user and system; read
 * around a phase to tell which of them the two cores went to.
 *
 * @param gateway the gateway process
 * @param redis the redis-server process
 * @param tool this load tool
 * @param at when read ({@link System#nanoTime()})
 */
record CpuClock(Duration gateway, Duration redis, Duration tool, long at) {

  static CpuClock read(long gatewayPid, long redisPid) {
    return new CpuClock(
        cpu(gatewayPid), cpu(redisPid), cpu(ProcessHandle.current().pid()), System.nanoTime());
  }

  /** Percent of one core each used since {@code before}: gateway, Redis, tool. */
  double[] percentSince(CpuClock before) {
    double wall = (at - before.at) / 1e9;
    return new double[] {
      pct(gateway.minus(before.gateway), wall),
      pct(redis.minus(before.redis), wall),
      pct(tool.minus(before.tool), wall)
    };
  }

  private static double pct(Duration used, double wallSeconds) {
    return wallSeconds <= 0 ? 0 : 100.0 * used.toNanos() / 1e9 / wallSeconds;
  }

  private static Duration cpu(long pid) {
    return ProcessHandle.of(pid).flatMap(p -> p.info().totalCpuDuration()).orElse(Duration.ZERO);
  }
}
