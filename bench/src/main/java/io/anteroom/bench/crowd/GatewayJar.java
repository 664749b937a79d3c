package io.anteroom.bench.crowd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.stream.Stream;

/** The gateway's executable jar, which {@code bench/crowd.sh} builds first. */
final class GatewayJar {

  private GatewayJar() {}

  /** The newest {@code gateway/target/*-exec.jar} under {@code root}. */
  static Path find(Path root) {
    try (Stream<Path> files = Files.list(root.resolve("gateway/target"))) {
      return files
          .filter(f -> f.getFileName().toString().endsWith("-exec.jar"))
          .max(Comparator.comparing(GatewayJar::modified))
          .orElseThrow(
              () -> new IllegalStateException("no gateway/target/*-exec.jar; build it first"));
    } catch (IOException e) {
      throw new UncheckedIOException("no gateway/target; build the gateway first", e);
    }
  }

  /** The jar's path, build time and the checkout it was built from, for the results file. */
  static String describe(Path root, Path jar) {
    String commit = git(root, "rev-parse", "--short", "HEAD");
    String changes =
        git(
            root,
            "status",
            "--porcelain",
            "--",
            "gateway/src/main",
            "queue-core/src/main",
            "config");
    return "`"
        + root.relativize(jar)
        + "`, built "
        + modified(jar).toString().replaceFirst("\\.\\d+Z$", "Z")
        + " from checkout "
        + commit
        + (changes.isBlank()
            ? ""
            : " with uncommitted changes to the gateway, queue-core or config");
  }

  private static FileTime modified(Path file) {
    try {
      return Files.getLastModifiedTime(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String git(Path root, String... args) {
    String[] command = new String[args.length + 3];
    command[0] = "git";
    command[1] = "-C";
    command[2] = root.toString();
    System.arraycopy(args, 0, command, 3, args.length);
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return process.waitFor() == 0 ? out.strip() : "unknown";
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }
}
