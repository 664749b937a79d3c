package io.anteroom.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The figures of a full-size attack ({@link AttackTest}), one row each, appended as tab-separated
 * {@code attack, what was measured, figure, goal, met} to {@code <attack>.tsv} in the directory of
 * the system property {@code attacks.out} (default {@code target/attacks}), where {@code
 * bench/attacks.sh} collects them into its table. A row without a goal says {@code —} for both.
 */
public final class AttackFigures {

  private final String attack;
  private final Path file;

  private AttackFigures(String attack, Path file) {
    this.attack = attack;
    this.file = file;
  }

  /**
   * The rows of {@code attack}, named as the table shows it (e.g. {@code 2. One-shot arrivals}),
   * written to a file named by {@code slug}; rows from an earlier run of the same attack go.
   */
  public static AttackFigures of(String slug, String attack) {
    Path file = Path.of(System.getProperty("attacks.out", "target/attacks"), slug + ".tsv");
    try {
      Files.createDirectories(file.getParent());
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new AttackFigures(attack, file);
  }

  /** A figure measured against a goal. */
  public void record(String measured, String figure, String goal, boolean met) {
    write(measured, figure, goal, met ? "yes" : "no");
  }

  /** A figure reported without a goal. */
  public void record(String measured, String figure) {
    write(measured, figure, "—", "—");
  }

  private void write(String measured, String figure, String goal, String met) {
    String row = String.join("\t", attack, measured, figure, goal, met) + "\n";
    try {
      Files.writeString(
          file, row, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
