package io.anteroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus config and alert rules run through {@code promtool}, from Debian's {@code
 * prometheus} package ({@code apt-get install prometheus}; {@code ./anteroom test} installs it).
 * Without promtool on the {@code PATH} these tests are skipped, saying so.
 */
class PromtoolTests {

  static final Optional<Path> PROMTOOL =
      Arrays.stream(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
          .filter(dir -> !dir.isEmpty())
          .map(dir -> Path.of(dir, "promtool"))
          .filter(Files::isExecutable)
          .findFirst();

  @Test
  void alertRulesPassTheCheck() throws Exception {
    assertThat(promtool("check", "rules", AlertRules.RULES.toString())).contains("SUCCESS");
  }

  @Test
  void alertRulesPassTheirUnitTests() throws Exception {
    assertThat(promtool("test", "rules", AlertRules.TESTS.toString())).contains("SUCCESS");
  }

  @Test
  void prometheusConfigAndTheRulesItLoadsPassTheCheck() throws Exception {
    assertThat(promtool("check", "config", "prometheus/prometheus.yml"))
        .contains(AlertRules.RULES.getFileName().toString());
  }

  /** promtool's output; fails unless it exits with 0 within a minute. */
  static String promtool(String... args) throws IOException, InterruptedException {
    assumeTrue(
        PROMTOOL.isPresent(),
        "promtool is not on the PATH, so the alert rules are not checked: install Debian's"
            + " prometheus package (apt-get install prometheus)");
    List<String> command = new ArrayList<>(List.of(PROMTOOL.get().toString()));
    command.addAll(List.of(args));
    Path output = Files.createTempFile("promtool-", ".txt");
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      if (!process.waitFor(1, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new AssertionError(String.join(" ", command) + " took over a minute");
      }
      String text = Files.readString(output);
      assertThat(process.exitValue()).as("%s:%n%s", String.join(" ", command), text).isZero();
      return text;
    } finally {
      Files.delete(output);
    }
  }
}
