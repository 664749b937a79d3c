package io.anteroom.bench.micro;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs the micro benchmarks of this package with the GC profiler and writes their scores and
 * allocation per operation as Markdown. {@code --out <file>} names the report; every other argument
 * is JMH's own (e.g. {@code -f 2 -i 10 Token}), ranking above the defaults on the classes.
 */
public final class MicroBench {

  private MicroBench() {}

  public static void main(String[] args) throws Exception {
    Path out = Path.of("bench/results/micro.md");
    List<String> jmhArgs = new ArrayList<>(List.of(args));
    int at = jmhArgs.indexOf("--out");
    if (at >= 0 && at + 1 < jmhArgs.size()) {
      out = Path.of(jmhArgs.remove(at + 1));
      jmhArgs.remove(at);
    }
    CommandLineOptions command = new CommandLineOptions(jmhArgs.toArray(String[]::new));
    OptionsBuilder options = new OptionsBuilder();
    if (command.getIncludes().isEmpty()) {
      options.include(MicroBench.class.getPackageName() + "\\.");
    }
    options.addProfiler(GCProfiler.class).parent(command);
    String report = MicroReport.markdown(new Runner(options.build()).run());
    Files.createDirectories(out.toAbsolutePath().getParent());
    Files.writeString(out, report);
    System.out.println(report + "\nWritten to " + out);
  }
}
