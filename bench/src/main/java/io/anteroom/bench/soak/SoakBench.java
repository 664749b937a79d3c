package io.anteroom.bench.soak;

import io.anteroom.bench.Markdown;
import io.anteroom.bench.Run;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.ToDoubleFunction;

/**
 * A long run of steady traffic through one gateway and one worker, with the redis-server killed and
 * started again every few minutes, alternately with its data (append-only file) and empty. Samples
 * the apps' heap and threads and Redis's connections every 10 s (and once a minute their heap right
 * after a full GC, which only grows with what they keep), and after each restart how long the line
 * took to be on again, what visitors were answered meanwhile, and whether the line held: waiting
 * visitors were not let in faster than the rate allows. Writes Markdown.
 */
public final class SoakBench {

  record Restart(
      long second,
      boolean empty,
      long downMs,
      long lineOnMs,
      long waitingBefore,
      long waitingAfter,
      long rejoinedAhead,
      long sessionsTakenBack,
      long admittedIn30s,
      long seenAdmittedIn30s,
      long policyAnswers,
      long otherErrors,
      long passSentBack) {}

  public static void main(String[] args) throws Exception {
    Duration duration = Duration.ofMinutes(Run.number("minutes"));
    Duration every = Duration.ofMinutes(Run.number("restart-every"));
    double rate = Double.parseDouble(Run.option("rate"));
    String gateway = Run.option("gateway");
    String gatewayMetrics = Run.option("gateway.metrics");
    String workerMetrics = Run.option("worker.metrics");
    long gatewayPid = Long.parseLong(Run.option("gateway.pid"));
    long workerPid = Long.parseLong(Run.option("worker.pid"));
    List<String> redisCommand = Arrays.asList(Run.option("redis.command").split(" "));
    SoakRedis redis =
        new SoakRedis(
            redisCommand,
            Path.of(Run.option("redis.dir")),
            new File(Run.option("redis.log")),
            Long.parseLong(Run.option("redis.pid")),
            Run.number("redis.port"));
    SoakCrowd crowd =
        new SoakCrowd(gateway, Run.number("line"), Duration.ofSeconds(Run.number("poll")));
    List<SoakSample> samples = new CopyOnWriteArrayList<>();
    List<Restart> restarts = new CopyOnWriteArrayList<>();
    long start = System.currentTimeMillis();
    long end = start + duration.toMillis();
    String began = Instant.now().toString();

    Thread sampler =
        daemon(
            () -> {
              for (int n = 1; System.currentTimeMillis() < end; n++) {
                boolean afterGc = n % 6 == 0;
                if (afterGc) {
                  SoakSample.fullGc(gatewayPid);
                  SoakSample.fullGc(workerPid);
                }
                samples.add(SoakSample.take(start, gatewayMetrics, workerMetrics, redis, afterGc));
                SoakRedis.sleep(10_000);
              }
            });
    Thread restarter =
        daemon(
            () -> {
              boolean empty = false;
              for (long at = start + every.toMillis(); at + 35_000 < end; at += every.toMillis()) {
                SoakRedis.sleep(Math.max(0, at - System.currentTimeMillis()));
                restarts.add(restart(start, redis, crowd, empty, rate));
                System.out.printf(
                    "restart %d done (%s)%n", restarts.size(), empty ? "empty" : "kept");
                empty = !empty;
              }
            });
    while (System.currentTimeMillis() < end) {
      long now = System.currentTimeMillis();
      crowd.round(now);
      SoakRedis.sleep(Math.max(0, 200 - (System.currentTimeMillis() - now)));
    }
    restarter.join(120_000);
    sampler.join(15_000);
    crowd.close();
    String report = report(began, duration, every, rate, crowd, samples, restarts);
    redis.close();
    Path out = Path.of(Run.option("out"));
    Files.writeString(out, report);
    System.out.println(report);
  }

  private static Thread daemon(Runnable task) {
    Thread thread = new Thread(task);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private static Restart restart(
      long start, SoakRedis redis, SoakCrowd crowd, boolean empty, double rate) {
    long waitingBefore = SoakSample.waiting(redis);
    long rejoinedBefore = empty ? 0 : stateCount(redis, "rejoined");
    long takenBackBefore = empty ? 0 : stateCount(redis, "rejoined-sessions");
    long policyBefore = crowd.policyAnswers.sum();
    long errorsBefore = crowd.otherErrors.sum();
    long sentBackBefore = crowd.passSentBack.sum();
    long admittedBefore = empty ? 0 : stateCount(redis, "admitted");
    long seenAdmittedBefore = crowd.admitted.sum();
    long at = System.currentTimeMillis();
    long down = redis.restart(empty);
    long lineOn = -1;
    while (System.currentTimeMillis() - at < 30_000) {
      try {
        if (redis.commands().hget("wr:active", "shop:1") != null) {
          lineOn = System.currentTimeMillis() - at;
          break;
        }
      } catch (RuntimeException notYet) {
        // reconnecting
      }
      SoakRedis.sleep(50);
    }
    SoakRedis.sleep(Math.max(0, at + 30_000 - System.currentTimeMillis()));
    return new Restart(
        (at - start) / 1000,
        empty,
        down,
        lineOn,
        waitingBefore,
        SoakSample.waiting(redis),
        stateCount(redis, "rejoined") - rejoinedBefore,
        stateCount(redis, "rejoined-sessions") - takenBackBefore,
        stateCount(redis, "admitted") - admittedBefore,
        crowd.admitted.sum() - seenAdmittedBefore,
        crowd.policyAnswers.sum() - policyBefore,
        crowd.otherErrors.sum() - errorsBefore,
        crowd.passSentBack.sum() - sentBackBefore);
  }

  /**
   * A counter of the line's state (enqueue.lua, touch.lua), which an empty restart started anew.
   */
  private static long stateCount(SoakRedis redis, String field) {
    try {
      String counted = redis.commands().hget("wr:{shop}:1:state", field);
      return counted == null ? 0 : Long.parseLong(counted);
    } catch (RuntimeException e) {
      return 0;
    }
  }

  private static String report(
      String began,
      Duration duration,
      Duration every,
      double rate,
      SoakCrowd crowd,
      List<SoakSample> samples,
      List<Restart> restarts) {
    Markdown md = new Markdown();
    md.line("# Soak: steady traffic with Redis restarted every %d minutes", every.toMinutes());
    md.line("");
    md.line("Started %s, %d minutes; `%s`.", began, duration.toMinutes(), Run.command());
    md.line(
        "Machine: %s; %s; load average at the end %s.",
        Run.machine(), Run.java(), Run.loadAverage());
    md.line("");
    md.line(
        "Visitors: %d requests, %d joined, %d admitted, %d origin pages, %d places found gone"
            + " (page loaded again), %d answers of the failure policy (503 `unavailable`),"
            + " %d pass holders sent back to the line, %d other errors %s.",
        crowd.requests.sum(),
        crowd.joined.sum(),
        crowd.admitted.sum(),
        crowd.reachedOrigin.sum(),
        crowd.placeGone.sum(),
        crowd.policyAnswers.sum(),
        crowd.passSentBack.sum(),
        crowd.otherErrors.sum(),
        crowd.errorSamples);
    md.line("");
    md.line("## Restarts (SIGKILL, then the same port and directory)");
    md.line("");
    md.row(
        "at (s)",
        "data",
        "down (ms)",
        "queue on again (ms)",
        "waiting before",
        "waiting 30 s after",
        "rejoined ahead (ticket holders)",
        "sessions taken back (pass holders)",
        "admitted in 30 s (bound)",
        "seen admitted by visitors in 30 s",
        "policy answers",
        "other errors",
        "pass holders sent back");
    md.row(
        "---:", "---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:",
        "---:", "---:");
    long bound = Math.round(rate * 30 + rate);
    for (Restart r : restarts) {
      md.row(
          r.second(),
          r.empty() ? "**empty**" : "kept",
          r.downMs(),
          r.lineOnMs(),
          r.waitingBefore(),
          r.waitingAfter(),
          r.rejoinedAhead(),
          r.sessionsTakenBack(),
          r.admittedIn30s() + " (" + bound + ")",
          r.seenAdmittedIn30s(),
          r.policyAnswers(),
          r.otherErrors(),
          r.passSentBack());
    }
    md.line("");
    md.line(
        "## Resources, per 5 minutes (min–max of the 10 s samples; after a full GC: of the"
            + " minute's)");
    md.line("");
    md.row(
        "minutes",
        "gateway heap (MiB)",
        "after a full GC",
        "gateway threads",
        "worker heap (MiB)",
        "after a full GC",
        "worker threads",
        "Redis connections",
        "waiting");
    md.row("---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:");
    List<List<SoakSample>> blocks = new ArrayList<>();
    for (SoakSample s : samples) {
      int block = (int) (s.second() / 300);
      while (blocks.size() <= block) {
        blocks.add(new ArrayList<>());
      }
      blocks.get(block).add(s);
    }
    for (int b = 0; b < blocks.size(); b++) {
      List<SoakSample> in = blocks.get(b);
      if (in.isEmpty()) {
        continue;
      }
      md.row(
          (b * 5) + "–" + (b * 5 + 5),
          span(in.stream().mapToDouble(SoakSample::gatewayHeapMib).toArray()),
          span(afterGc(in, SoakSample::gatewayLiveMib)),
          span(in.stream().mapToDouble(SoakSample::gatewayThreads).toArray()),
          span(in.stream().mapToDouble(SoakSample::workerHeapMib).toArray()),
          span(afterGc(in, SoakSample::workerLiveMib)),
          span(in.stream().mapToDouble(SoakSample::workerThreads).toArray()),
          span(in.stream().mapToDouble(SoakSample::redisClients).filter(c -> c >= 0).toArray()),
          span(in.stream().mapToDouble(SoakSample::waiting).filter(c -> c >= 0).toArray()));
    }
    md.line("");
    md.line("## Verdicts");
    md.line("");
    List<SoakSample> first = blocks.isEmpty() ? List.of() : blocks.get(0);
    List<SoakSample> last = blocks.isEmpty() ? List.of() : blocks.get(blocks.size() - 1);
    double[] gatewayLive = afterGc(samples, SoakSample::gatewayLiveMib);
    double[] workerLive = afterGc(samples, SoakSample::workerLiveMib);
    int firstThreads = first.stream().mapToInt(SoakSample::gatewayThreads).max().orElse(0);
    int lastThreads = last.stream().mapToInt(SoakSample::gatewayThreads).max().orElse(0);
    int firstClients = first.stream().mapToInt(SoakSample::redisClients).max().orElse(0);
    int lastClients = last.stream().mapToInt(SoakSample::redisClients).max().orElse(0);
    boolean lineHeld =
        restarts.stream().allMatch(r -> r.lineOnMs() >= 0 && r.admittedIn30s() <= bound);
    md.line(
        "- No 5xx beyond the failure policy: %s (%d other errors).",
        verdict(crowd.otherErrors.sum() == 0), crowd.otherErrors.sum());
    md.line(
        "- Gateway heap flat (after a full GC, the last minute's ≤ 1.5 × the first minute's + 16 MiB): %s (%s MiB).",
        verdict(flat(gatewayLive)), firstToLast(gatewayLive));
    md.line(
        "- Worker heap flat (the same measure): %s (%s MiB).",
        verdict(flat(workerLive)), firstToLast(workerLive));
    md.line(
        "- Gateway threads flat (most in the last 5 minutes ≤ the first's + 4): %s (%d → %d).",
        verdict(lastThreads <= firstThreads + 4), firstThreads, lastThreads);
    md.line(
        "- No leaked Redis connections (most in the last 5 minutes ≤ the first's + 2): %s (%d → %d).",
        verdict(lastClients <= firstClients + 2), firstClients, lastClients);
    md.line(
        "- The line intact after every restart (the queue on again, and at most the rate's 30 s and a second's burst admitted in the 30 s after, by the line's own count): %s.",
        verdict(lineHeld));
    return md.toString();
  }

  private static double[] afterGc(List<SoakSample> in, ToDoubleFunction<SoakSample> heap) {
    return in.stream().mapToDouble(heap).filter(h -> !Double.isNaN(h)).toArray();
  }

  private static boolean flat(double[] afterGc) {
    return afterGc.length >= 2 && afterGc[afterGc.length - 1] <= 1.5 * afterGc[0] + 16;
  }

  private static String firstToLast(double[] afterGc) {
    return afterGc.length == 0
        ? "none"
        : String.format(
            java.util.Locale.ROOT, "%.0f → %.0f", afterGc[0], afterGc[afterGc.length - 1]);
  }

  private static String verdict(boolean met) {
    return met ? "met" : "**not met**";
  }

  private static String span(double[] values) {
    if (values.length == 0) {
      return "–";
    }
    double lo = Arrays.stream(values).min().orElse(0);
    double hi = Arrays.stream(values).max().orElse(0);
    return String.format(java.util.Locale.ROOT, "%.0f–%.0f", lo, hi);
  }
}
