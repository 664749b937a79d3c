package io.anteroom.testing.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts a redis-server process and waits until it answers PING as itself on its port.
 *
 * <p>"As itself" matters: when the port was taken in the meantime, our process exits while whatever
 * holds the port might answer. Failures are {@link IllegalStateException}s quoting the tail of the
 * server's log and console output.
 */
final class RedisLauncher {

  static final String LOG_FILE = "redis.log";

  /** Where redis-server writes before it opens its log file, e.g. a bad command-line option. */
  private static final String CONSOLE_FILE = "console.log";

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration PING_TIMEOUT = Duration.ofSeconds(1);
  private static final long POLL_MILLIS = 20;
  private static final int TAIL_LINES = 20;

  private RedisLauncher() {}

  /**
   * Set by the build for the unit tier, whose tests must not need a redis-server (README, "Tests").
   */
  static final String UNIT_TIER_PROPERTY = "io.anteroom.testing.unit-tier";

  /** Starts {@code command} in {@code dir}; on failure no process is left running. */
  static Process launch(List<String> command, Path dir, int port) {
    if (Boolean.getBoolean(UNIT_TIER_PROPERTY)) {
      throw new IllegalStateException(
          "a unit test started a redis-server: name its class *IntegrationTests");
    }
    Process process;
    try {
      process =
          new ProcessBuilder(command)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(CONSOLE_FILE).toFile()))
              .start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + command.get(0), e);
    }
    try {
      awaitReady(process, dir, port);
      return process;
    } catch (RuntimeException e) {
      process.destroyForcibly();
      awaitExit(process, READY_TIMEOUT);
      throw e;
    }
  }

  /** Returns once {@code process} answers PING on {@code port}, or throws. */
  static void awaitReady(Process process, Path dir, int port) {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (!answersAsItself(process, dir, port)) {
      if (awaitExit(process, Duration.ofMillis(POLL_MILLIS))) {
        throw failure(
            "redis-server for port " + port + " exited with code " + process.exitValue(), dir);
      }
      if (System.nanoTime() > deadline) {
        throw failure(
            "redis-server on port " + port + " did not answer PING within " + READY_TIMEOUT, dir);
      }
    }
  }

  private static boolean answersAsItself(Process process, Path dir, int port) {
    try {
      if (!"PONG".equals(Resp.command("127.0.0.1", port, PING_TIMEOUT, "PING"))) {
        return false;
      }
      String info = Resp.command("127.0.0.1", port, PING_TIMEOUT, "INFO", "server");
      if (!info.contains("process_id:" + process.pid() + "\r\n")) {
        throw failure("port " + port + " is answered by another redis-server", dir);
      }
      return true;
    } catch (UncheckedIOException | RedisCommandException notYet) {
      // Not listening yet, or still loading its data (-LOADING).
      return false;
    }
  }

  static boolean awaitExit(Process process, Duration timeout) {
    try {
      return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return !process.isAlive();
    }
  }

  private static IllegalStateException failure(String what, Path dir) {
    return new IllegalStateException(
        what + tail(dir.resolve(LOG_FILE)) + tail(dir.resolve(CONSOLE_FILE)));
  }

  private static String tail(Path file) {
    try {
      List<String> lines = Files.readAllLines(file);
      if (lines.isEmpty()) {
        return "";
      }
      List<String> last = lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size());
      return "\n--- last lines of " + file + " ---\n" + String.join("\n", last);
    } catch (IOException unreadable) {
      return "\n--- " + file + " unreadable: " + unreadable + " ---";
    }
  }
}
