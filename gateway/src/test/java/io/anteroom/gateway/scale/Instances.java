package io.anteroom.gateway.scale;

import io.anteroom.gateway.monitoring.WorkerApp;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a test of many apps on one Redis keeps: the apps and helpers it starts, closed in reverse
 * order when it ends (its workers killed first, as dying processes, so none admits while the rest
 * closes); the moments it marks in the {@code MONITOR} stream; its progress, printed with the time
 * since it began.
 */
final class Instances implements AutoCloseable {

  /** The workers running now; a test removes those it kills. */
  final List<WorkerApp> workers = new ArrayList<>();

  private final List<AutoCloseable> open = new ArrayList<>();
  private final String name;
  private final RedisClient client;
  private final RedisCommands<String, String> commands;
  private final long start = System.nanoTime();

  /**
   * @param name what the printed progress is tagged with
   */
  Instances(String name, String redisUri) {
    this.name = name;
    this.client = RedisClient.create(redisUri);
    this.commands = client.connect().sync();
  }

  /** Commands of this test's own, to read what the apps did. */
  RedisCommands<String, String> redis() {
    return commands;
  }

  /** {@code closeable}, closed when the test ends. */
  <T extends AutoCloseable> T keep(T closeable) {
    open.add(closeable);
    return closeable;
  }

  /** A worker started now, killed when the test ends unless the test killed it before. */
  WorkerApp startWorker(String redisUri, String tick, String... extra) {
    WorkerApp worker = keep(new WorkerApp(redisUri, tick, extra));
    workers.add(worker);
    return worker;
  }

  /** A moment in the MONITOR stream, between the commands before and after it. */
  void mark(String phase) {
    commands.echo(phase);
    report("phase %s", phase);
  }

  void report(String format, Object... args) {
    System.out.printf(
        "[%s %5.1fs] %s%n", name, (System.nanoTime() - start) / 1e9, String.format(format, args));
  }

  @Override
  public void close() throws Exception {
    workers.forEach(WorkerApp::kill);
    Collections.reverse(open);
    for (AutoCloseable closeable : open) {
      closeable.close();
    }
    client.shutdown();
  }
}
