package io.anteroom.testing.redis;

import io.anteroom.testing.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * One real redis-server process for tests, listening on 127.0.0.1 on a port that was free when it
 * started.
 *
 * <p>Each server has its own temporary working directory holding its log file and, when persistent,
 * its data, so several servers run side by side. A test may stop, kill or pause the server; {@link
 * #restart()} and {@link #resume()} bring it back on the same port.
 *
 * <p>Callers must {@link #close()} every server they start, best with try-with-resources. A shared
 * shutdown hook closes servers still open when the JVM exits, as a safety net only. Drive a server
 * from one thread at a time.
 */
public final class RedisServer implements AutoCloseable {

  private static final String HOST = "127.0.0.1";
  private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(10);

  /** A Sentinel's own config file in its working directory, which it rewrites as it learns. */
  private static final String SENTINEL_CONFIG = "sentinel.conf";

  private final int port;
  private final boolean persistent;
  private final Path dir;
  private final List<String> commandLine;
  private volatile Process process;
  private volatile boolean paused;
  private volatile boolean closed;

  private RedisServer(
      Path binary, int port, boolean persistent, boolean sentinel, List<String> extraArgs) {
    this.port = port;
    this.persistent = persistent;
    this.dir = createDirectory();
    this.commandLine = commandLine(binary, sentinel, extraArgs);
    OrphanReaper.track(this);
  }

  /** Starts a non-persistent server with default settings; the caller must close it. */
  public static RedisServer start() {
    return builder().start();
  }

  /** A builder for a server with extra redis-server settings, persistence or a fixed port. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The redis-server executable every server runs: the one named by the system property {@code
   * anteroom.test.redis-server} or the environment variable {@code ANTEROOM_TEST_REDIS_SERVER},
   * else one on the PATH or in /usr/bin or /usr/local/bin, else the Linux binary embedded in the
   * embedded-redis jar. Looked up once per JVM.
   */
  public static Path binary() {
    return RedisBinary.resolve();
  }

  /** The port; it stays the same across restarts. */
  public int port() {
    return port;
  }

  /** Always {@code 127.0.0.1}. */
  public String host() {
    return HOST;
  }

  /** {@code redis://127.0.0.1:PORT}, for clients that take a URI. */
  public String uri() {
    return "redis://" + HOST + ":" + port;
  }

  /** The process id of the current process, or of the last one once it has exited. */
  public long pid() {
    return process.pid();
  }

  /** The server's log file, inside its working directory; gone once the server is closed. */
  public Path logFile() {
    return dir.resolve(RedisLauncher.LOG_FILE);
  }

  /** Whether the process is alive, including while it is paused. */
  public boolean isRunning() {
    Process current = process;
    return current != null && current.isAlive();
  }

  /** Whether the process is alive but paused by {@link #pause()}. */
  public boolean isPaused() {
    return paused && isRunning();
  }

  /**
   * Shuts the server down gracefully with {@code SHUTDOWN} ({@code SHUTDOWN NOSAVE} when not
   * persistent) and waits for the process to exit, falling back to SIGTERM, then SIGKILL. Does
   * nothing when the server is not running.
   */
  public void stop() {
    Process current = process;
    if (current == null || !current.isAlive()) {
      return;
    }
    if (paused) {
      resumeProcess(current);
    }
    try {
      command(persistent ? new String[] {"SHUTDOWN"} : new String[] {"SHUTDOWN", "NOSAVE"});
    } catch (UncheckedIOException | RedisCommandException expected) {
      // A server that shuts down closes the connection without a reply. One that refuses (an
      // error reply) or hangs is terminated below.
    }
    if (!RedisLauncher.awaitExit(current, EXIT_TIMEOUT)) {
      current.destroy();
      if (!RedisLauncher.awaitExit(current, EXIT_TIMEOUT)) {
        kill();
      }
    }
  }

  /** Kills the process with SIGKILL, as a crash would, and waits for it to exit. */
  public void kill() {
    Process current = process;
    if (current == null) {
      return;
    }
    current.destroyForcibly();
    if (!RedisLauncher.awaitExit(current, EXIT_TIMEOUT)) {
      throw new IllegalStateException("redis-server " + current.pid() + " survived SIGKILL");
    }
    paused = false;
  }

  /**
   * Freezes the process with SIGSTOP: connections are still accepted but nothing is answered until
   * {@link #resume()}. The caller must resume, stop, kill or close the server afterwards.
   */
  public void pause() {
    Signals.stop(requireRunning().pid());
    paused = true;
  }

  /** Continues a paused process with SIGCONT and returns once it answers PING again. */
  public void resume() {
    Process current = requireRunning();
    resumeProcess(current);
    RedisLauncher.awaitReady(current, dir, port);
  }

  /**
   * Starts the server again on the same port and working directory with the same settings, stopping
   * it first if it is still running, and returns once it answers PING. A persistent server comes
   * back with its data. Fails if another process took the port meanwhile.
   */
  public void restart() {
    if (closed) {
      throw new IllegalStateException("server on port " + port + " is closed");
    }
    stop();
    launch();
  }

  /** Deletes every key in every database. */
  public void flushAll() {
    command("FLUSHALL");
  }

  /**
   * Sends one command and returns its reply as text: strings as they are, integers in decimal,
   * {@code null} for a nil reply, arrays as their elements joined by {@code "\n"}. Opens a new
   * connection per call and waits at most 5 seconds for the reply.
   *
   * @throws RedisCommandException when Redis replies with an error
   * @throws UncheckedIOException when the server cannot be reached or does not reply in time
   */
  public String command(String... args) {
    return Resp.command(HOST, port, COMMAND_TIMEOUT, args);
  }

  /** Kills the process if it is running and deletes the working directory. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      kill();
      deleteDirectory();
    } finally {
      OrphanReaper.untrack(this);
    }
  }

  @Override
  public String toString() {
    return "RedisServer[" + uri() + ", dir=" + dir + "]";
  }

  private void launch() {
    process = RedisLauncher.launch(commandLine, dir, port);
    paused = false;
  }

  private void resumeProcess(Process current) {
    Signals.resume(current.pid());
    paused = false;
  }

  private Process requireRunning() {
    if (!isRunning()) {
      throw new IllegalStateException("redis-server on port " + port + " is not running");
    }
    return process;
  }

  private List<String> commandLine(Path binary, boolean sentinel, List<String> extraArgs) {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    if (sentinel) {
      command.addAll(List.of(writeSentinelConfig().toString(), "--sentinel"));
    }
    command.addAll(List.of("--port", Integer.toString(port), "--bind", HOST));
    command.addAll(List.of("--protected-mode", "no", "--daemonize", "no"));
    command.addAll(List.of("--dir", dir.toString(), "--logfile", logFile().toString()));
    if (persistent) {
      command.addAll(List.of("--appendonly", "yes", "--appendfsync", "always"));
    } else {
      command.addAll(List.of("--save", "", "--appendonly", "no"));
    }
    // Last, so that they override the defaults above.
    command.addAll(extraArgs);
    return List.copyOf(command);
  }

  private Path writeSentinelConfig() {
    Path config = dir.resolve(SENTINEL_CONFIG);
    try {
      return Files.writeString(config, "");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + config, e);
    }
  }

  private static Path createDirectory() {
    try {
      return Files.createTempDirectory("anteroom-redis-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a working directory for redis-server", e);
    }
  }

  private void deleteDirectory() {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }

  /**
   * Settings for a new server. Defaults: not persistent, a free port, no extra redis-server
   * options.
   */
  public static final class Builder {

    private static final int START_ATTEMPTS = 3;

    /** Redis Cluster also listens on a bus port, the data port plus this offset. */
    private static final int CLUSTER_BUS_OFFSET = 10_000;

    private final List<String> args = new ArrayList<>();
    private boolean persistent;
    private boolean sentinel;
    private int port;

    private Builder() {}

    /**
     * Runs a Sentinel ({@code redis-server sentinel.conf --sentinel}) instead of a data server, on
     * an empty config file of its own; give it what to watch with {@code args("--sentinel",
     * "monitor", …)}. A Sentinel rewrites that file as it learns; such a server is not meant to be
     * restarted.
     */
    public Builder sentinel() {
      this.sentinel = true;
      return this;
    }

    /**
     * Adds one redis-server option, e.g. {@code arg("cluster-enabled", "yes")}; a leading {@code
     * --} on the name is optional. Extra options come after the harness's own, so they override
     * them.
     */
    public Builder arg(String name, String value) {
      args.add(name.startsWith("--") ? name : "--" + name);
      args.add(value);
      return this;
    }

    /** Adds raw redis-server command-line tokens, e.g. {@code args("--cluster-enabled", "yes")}. */
    public Builder args(String... tokens) {
      args.addAll(List.of(tokens));
      return this;
    }

    /**
     * With {@code true}, writes every command to an append-only file synced on each write ({@code
     * --appendonly yes --appendfsync always}), so data survives stop, kill and restart. With {@code
     * false}, the default, nothing is saved ({@code --save "" --appendonly no}).
     */
    public Builder persistent(boolean persistent) {
      this.persistent = persistent;
      return this;
    }

    /**
     * Listens on this port instead of a free one. The caller must make sure it is free; a fixed
     * port is tried once, while a free one is re-picked when another process takes it first.
     */
    public Builder port(int port) {
      if (port < 1 || port > 65_535) {
        throw new IllegalArgumentException("port must be 1..65535, was " + port);
      }
      this.port = port;
      return this;
    }

    /**
     * Starts the server and returns once it answers PING; the caller must close it.
     *
     * @throws IllegalStateException when redis-server exits or does not answer within 10 seconds,
     *     with the tail of its log in the message
     */
    public RedisServer start() {
      Path binary = binary();
      List<String> extraArgs = List.copyOf(args);
      int attempts = port == 0 ? START_ATTEMPTS : 1;
      IllegalStateException failure = null;
      for (int attempt = 0; attempt < attempts; attempt++) {
        int chosen = port != 0 ? port : freePort();
        RedisServer server = new RedisServer(binary, chosen, persistent, sentinel, extraArgs);
        try {
          server.launch();
          return server;
        } catch (IllegalStateException e) {
          server.close();
          if (failure == null) {
            failure = e;
          } else {
            failure.addSuppressed(e);
          }
        }
      }
      throw failure;
    }

    // A cluster node also needs its bus port, port + 10000, to be free and valid.
    private int freePort() {
      return clusterEnabled() ? FreePorts.pickWithPartner(CLUSTER_BUS_OFFSET) : FreePorts.pick();
    }

    private boolean clusterEnabled() {
      int flag = args.indexOf("--cluster-enabled");
      return flag >= 0 && flag + 1 < args.size() && "yes".equalsIgnoreCase(args.get(flag + 1));
    }
  }
}
