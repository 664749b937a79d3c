package io.anteroom.bench.micro;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs the micro benchmarks of this package with the GC profiler and writes their scores and
 * allocation per operation as Markdown. {@code --out <file>} names the report; every other argument
 * is JMH's own (e.g. {@code -f 2 -i 10 Token}), ranking above the defaults on the classes.
 */
public final class MicroBench {

  private MicroBench() {}

  public static void main(String[] args)
      throws RunnerException, IOException, CommandLineOptionException {
    Path out = Path.of("bench/results/micro.md");
    List<String> jmhArgs = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--out") && i + 1 < args.length) {
        out = Path.of(args[++i]);
      } else {
        jmhArgs.add(args[i]);
      }
    }
    CommandLineOptions command = new CommandLineOptions(jmhArgs.toArray(String[]::new));
    OptionsBuilder builder = new OptionsBuilder();
    if (command.getIncludes().isEmpty()) {
      builder.include(MicroBench.class.getPackageName() + "\\.");
    }
    Options options = builder.addProfiler(GCProfiler.class).parent(command).build();
    Collection<RunResult> results = new Runner(options).run();
    String report =
        MicroReport.markdown(results, System.getProperty("bench.command", "bench/micro.sh"));
    Path parent = out.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    Files.writeString(out, report);
    System.out.println(report);
    System.out.println("Written to " + out);
  }
}
