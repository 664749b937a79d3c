package io.anteroom.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** STYLE: "a class that passes 400 is asking to be split". */
class FileSizeTests {

  private static final int MAX_LINES = 400;

  @Test
  void noProductionFileOfAnyModuleHasMoreThan400Lines() throws IOException {
    List<String> tooLong = new ArrayList<>();
    int files = 0;
    for (Modules module : Modules.values()) {
      try (Stream<Path> sources = Files.walk(module.mainSources())) {
        for (Path file : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
          files++;
          long lines = lines(file);
          if (lines > MAX_LINES) {
            tooLong.add(Modules.root().relativize(file) + ": " + lines + " lines");
          }
        }
      }
    }
    assertThat(files).as("production files found").isGreaterThan(100);
    assertThat(tooLong).as("files over " + MAX_LINES + " lines").isEmpty();
  }

  private static long lines(Path file) {
    try (Stream<String> lines = Files.lines(file)) {
      return lines.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
