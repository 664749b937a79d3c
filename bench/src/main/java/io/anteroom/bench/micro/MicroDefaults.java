package io.anteroom.bench.micro;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What every micro benchmark shares: JMH's settings (its annotations are inherited; command-line
 * options rank above them), the room and the signing key.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 2,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Dslf4j.provider=org.slf4j.simple.SimpleServiceProvider"})
@State(Scope.Benchmark)
public abstract class MicroDefaults {

  static final String ROOM = "shop";
  static final byte[] KEY =
      "micro-benchmark-key-of-at-least-32-bytes".getBytes(StandardCharsets.UTF_8);

  /** Fails a benchmark whose set-up would measure something other than it means to. */
  static void require(boolean condition, String what) {
    if (!condition) {
      throw new IllegalStateException("benchmark set-up is wrong: " + what);
    }
  }
}
