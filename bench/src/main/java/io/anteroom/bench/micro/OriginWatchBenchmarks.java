package io.anteroom.bench.micro;

import io.anteroom.gateway.origin.OriginMeters;
import io.anteroom.gateway.origin.OriginWatch;
import io.anteroom.queue.origin.OriginFigures;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Random;
import java.util.Set;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The auto-pilot's {@link OriginWatch} alone. {@code recordAnswer}: what a pass holder's answer
 * adds when {@link OriginMeters} records it a second time, the watch's package-private {@code
 * record}. {@code takeAndEncode}: what the gateway does once a second per room with auto-pilot on,
 * before its one Redis call, taking the room's interval and encoding it as the call sends it;
 * before each operation, outside the measured time, {@value #ANSWERS} answers are recorded, their
 * times spread as a busy origin's are (log-normal, median 40 ms, most between 10 and 200 ms), so
 * the histogram holds as many distinct values as a real second's. Both call {@code record}
 * directly, so that the set-up allocates nothing: JMH's bytes per operation count the set-up's
 * allocations too.
 */
public class OriginWatchBenchmarks extends MicroDefaults {

  /** Answers a second recorded before each take. */
  static final int ANSWERS = 1000;

  private OriginWatch watch;
  private MethodHandle record;
  private long[] nanos;
  private int next;

  @Setup(Level.Trial)
  public void prepare() throws Throwable {
    watch = new OriginWatch(Set.of(ROOM));
    record =
        MethodHandles.privateLookupIn(OriginWatch.class, MethodHandles.lookup())
            .findVirtual(
                OriginWatch.class,
                "record",
                MethodType.methodType(
                    void.class, String.class, OriginMeters.Outcome.class, long.class))
            .bindTo(watch);
    Random random = new Random(42);
    nanos = new long[ANSWERS];
    for (int i = 0; i < ANSWERS; i++) {
      double millis = Math.exp(Math.log(40) + 0.8 * random.nextGaussian());
      nanos[i] = (long) (millis * 1_000_000);
    }
    recordSecond();
    OriginFigures figures = watch.take(ROOM);
    require(figures.answers() == ANSWERS, "every answer must be recorded");
    require(
        OriginFigures.decode(figures.encode()).latency().getTotalCount() == ANSWERS,
        "the encoded figures must hold every answer");
  }

  /** A second's pass holders' answers. */
  void recordSecond() throws Throwable {
    for (long time : nanos) {
      record.invokeExact(ROOM, OriginMeters.Outcome.SUCCESS, time);
    }
  }

  /** Records a second's answers before each {@code takeAndEncode}. */
  @State(Scope.Thread)
  public static class Second {
    @Setup(Level.Invocation)
    public void record(OriginWatchBenchmarks bench) throws Throwable {
      bench.recordSecond();
    }
  }

  @Benchmark
  public void recordAnswer() throws Throwable {
    next = (next + 1) % ANSWERS;
    record.invokeExact(ROOM, OriginMeters.Outcome.SUCCESS, nanos[next]);
  }

  @Benchmark
  public String takeAndEncode(Second second) {
    return watch.take(ROOM).encode();
  }
}
