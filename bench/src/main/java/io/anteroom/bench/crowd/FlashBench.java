package io.anteroom.bench.crowd;

import io.anteroom.bench.Run;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * An open-loop flash crowd against one gateway ({@link OpenLoop}), in the phase {@code flash.sh}
 * asks for: {@code cold}, one step on a gateway just started (exit status 3 when it did not hold);
 * {@code warm}, a warm-up step at the ladder's first rate and then the ladder until a step does not
 * hold, narrowed down between the last step held and the first one that was not; {@code report},
 * the results file from the steps every run added to the steps file. Each step has a line of its
 * own, lines 90001 and on, from {@code -Dbench.line}.
 */
public final class FlashBench {

  static final int FIRST_ITEM = 90_000;
  static final int NOT_HELD = 3;

  private final OpenLoop.Factory loops;
  private final long gatewayPid;
  private final long redisPid;
  private final int seconds;
  private final int hold;
  private final int pause;
  private final Path stepsFile;
  private int line;

  private FlashBench(OpenLoop.Factory loops, long gatewayPid, long redisPid, Path stepsFile) {
    this.loops = loops;
    this.gatewayPid = gatewayPid;
    this.redisPid = redisPid;
    this.seconds = Run.number("step");
    this.hold = Run.number("hold");
    this.pause = Run.number("pause");
    this.stepsFile = stepsFile;
    this.line = Run.number("line");
  }

  public static void main(String[] args) throws IOException, InterruptedException {
    String phase = Run.option("phase");
    Path stepsFile = Path.of(Run.option("steps"));
    if (phase.equals("report")) {
      List<FlashStep> steps = Files.readAllLines(stepsFile).stream().map(FlashStep::parse).toList();
      String report = FlashReport.render(steps);
      Files.writeString(Path.of(Run.option("out")), report);
      System.out.println(report);
      return;
    }
    URI gateway = URI.create(Run.option("gateway"));
    InetSocketAddress address = new InetSocketAddress(gateway.getHost(), gateway.getPort());
    int connections = Run.number("connections");
    OpenLoop.Factory loops =
        item ->
            new OpenLoop(address, "/products/" + item, "/_anteroom/status?room=shop", connections);
    FlashBench bench =
        new FlashBench(
            loops,
            Long.parseLong(Run.option("gateway.pid")),
            Long.parseLong(Run.option("redis.pid")),
            stepsFile);
    int[] ladder =
        Arrays.stream(Run.option("rates").split(",")).mapToInt(Integer::parseInt).toArray();
    if (phase.equals("cold")) {
      boolean held = bench.step("cold", Run.number("at")).held();
      System.exit(held ? 0 : NOT_HELD);
    }
    bench.step("warm-up", ladder[0], Run.number("warmup"));
    int held = bench.ladder(ladder);
    bench.narrow(ladder, held, Run.number("narrow"));
  }

  /** Runs the rates in order until one is not held; the highest held, 0 for none. */
  private int ladder(int[] rates) throws IOException, InterruptedException {
    int held = 0;
    for (int rate : rates) {
      if (!step("warm", rate).held()) {
        break;
      }
      held = rate;
    }
    return held;
  }

  /** Halves the gap between the highest rate held and the next of the ladder, {@code times}. */
  private void narrow(int[] rates, int highestHeld, int times)
      throws IOException, InterruptedException {
    int held = highestHeld;
    int failed = Arrays.stream(rates).filter(r -> r > highestHeld).findFirst().orElse(0);
    for (int i = 0; i < times && failed > 0; i++) {
      int rate = (held + failed) / 2;
      if (rate <= held || rate >= failed) {
        return;
      }
      if (step("warm", rate).held()) {
        held = rate;
      } else {
        failed = rate;
      }
    }
  }

  private FlashStep step(String phase, int rate) throws IOException, InterruptedException {
    return step(phase, rate, seconds);
  }

  /** One step of {@code arrivals} seconds of newcomers at {@code rate}, and the hold after. */
  private FlashStep step(String phase, int rate, int arrivals)
      throws IOException, InterruptedException {
    OpenLoop loop = loops.on(FIRST_ITEM + line++);
    long self = ProcessHandle.current().pid();
    long[] before = {cpu(gatewayPid), cpu(redisPid), cpu(self)};
    long t0 = System.nanoTime();
    OpenLoop.Result result = loop.run(rate, arrivals, hold);
    double wall = (System.nanoTime() - t0) / 1e9;
    FlashStep step =
        FlashStep.of(
            phase,
            rate,
            arrivals + hold,
            result,
            cores(cpu(gatewayPid) - before[0], wall),
            cores(cpu(redisPid) - before[1], wall),
            cores(cpu(self) - before[2], wall));
    Files.writeString(
        stepsFile, step.line() + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    System.out.printf(
        "%s %d/s: join p50 %.1f ms p99 %.1f ms, %d errors%s, gateway %.2f cores, %.0f polls/s%n",
        phase,
        rate,
        step.joinP50Ms(),
        step.joinP99Ms(),
        step.joinErrors() + step.pollErrors(),
        step.firstError().isEmpty() ? "" : " (" + step.firstError() + ")",
        step.gatewayCores(),
        step.pollsPerSecond());
    Thread.sleep(TimeUnit.SECONDS.toMillis(pause));
    return step;
  }

  /** A process's user and system CPU in clock ticks (/proc/pid/stat), 0 when unreadable. */
  static long cpu(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
      return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /** Cores busy on average: ticks of 1/100 s over the wall time. */
  private static double cores(long ticks, double wallSeconds) {
    return ticks / 100.0 / wallSeconds;
  }
}
