package io.anteroom.bench.soak;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The redis-server the soak restarts: killed with SIGKILL, then started again on the same port and
 * directory, either with its append-only file (data kept) or after the directory was emptied (as a
 * restart without persistence, or a replacement machine, leaves it).
 */
final class SoakRedis implements AutoCloseable {

  private final List<String> command;
  private final Path dir;
  private final File log;
  private final RedisClient client;
  private final StatefulRedisConnection<String, String> connection;
  private ProcessHandle server;

  SoakRedis(List<String> command, Path dir, File log, long pid, int port) {
    this.command = List.copyOf(command);
    this.dir = dir;
    this.log = log;
    this.server = ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("no " + pid));
    this.client = RedisClient.create("redis://127.0.0.1:" + port);
    this.connection = client.connect();
  }

  /** Commands of the soak's own, to look at the line; they reconnect after a restart. */
  RedisCommands<String, String> commands() {
    return connection.sync();
  }

  /**
   * Kills the server and starts it again, empty when {@code empty}; returns the milliseconds until
   * it answered PING again.
   */
  long restart(boolean empty) {
    long start = System.nanoTime();
    server.destroyForcibly();
    server.onExit().join();
    if (empty) {
      clear(dir);
    }
    try {
      Process started =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log))
              .start();
      server = started.toHandle();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline) {
      try {
        if ("PONG".equals(commands().ping())) {
          return (System.nanoTime() - start) / 1_000_000;
        }
      } catch (RuntimeException notYet) {
        // loading or reconnecting
      }
      sleep(20);
    }
    throw new IllegalStateException("redis-server did not answer within 60 s after a restart");
  }

  private static void clear(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files
          .sorted(Comparator.reverseOrder())
          .filter(path -> !path.equals(dir))
          .forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    connection.close();
    client.shutdown();
    server.destroyForcibly();
  }
}
