package io.anteroom.bench.crowd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real gateway, {@code java -jar gateway/target/gateway-*-exec.jar}, started as its own process
 * with {@code config/anteroom.yml}, a fixed test signing key and some queues turned on at start.
 * The caller must {@link #close()} it; {@link CrowdBench} also does from a shutdown hook.
 */
final class GatewayProcess implements AutoCloseable {

  /** Base64 of the 32 ASCII bytes "anteroom-bench-crowd-signing-key": a test key, never secret. */
  static final String TOKEN_KEY = "YW50ZXJvb20tYmVuY2gtY3Jvd2Qtc2lnbmluZy1rZXk=";

  private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

  private final Process process;
  private final int port;
  private final int managementPort;
  private final Path log;
  private final List<String> commandLine;

  private GatewayProcess(
      Process process, int port, int managementPort, Path log, List<String> commandLine) {
    this.process = process;
    this.port = port;
    this.managementPort = managementPort;
    this.log = log;
    this.commandLine = commandLine;
  }

  /** Starts the gateway and returns once its readiness probe answers 200. */
  static GatewayProcess start(
      Path jar,
      Path config,
      String redisUri,
      int originPort,
      LoopbackPorts ports,
      String heap,
      List<String> activeQueues,
      Path log) {
    int port = ports.pick();
    int managementPort = ports.pick();
    List<String> command = new ArrayList<>();
    command.addAll(List.of("java", "-Xmx" + heap, "-jar", jar.toString()));
    command.add("--server.port=" + port);
    command.add("--management.server.port=" + managementPort);
    command.add("--anteroom.tokens.keys.main=" + TOKEN_KEY);
    command.add("--anteroom.gateway.cookie-secure=false");
    command.add("--anteroom.gateway.activate-on-start=" + String.join(",", activeQueues));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.redirectOutput(log.toFile());
    Map<String, String> env = builder.environment();
    env.remove("ANTEROOM_TOKEN_KEY");
    env.put("ANTEROOM_CONFIG", config.toString());
    env.put("ANTEROOM_REDIS_URI", redisUri);
    env.put("ANTEROOM_ORIGIN", "http://127.0.0.1:" + originPort);
    Process process;
    try {
      process = builder.start();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
    }
    GatewayProcess gateway = new GatewayProcess(process, port, managementPort, log, command);
    try {
      gateway.awaitReady();
      return gateway;
    } catch (RuntimeException e) {
      gateway.close();
      throw e;
    }
  }

  long pid() {
    return process.pid();
  }

  URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + port + pathAndQuery);
  }

  Path log() {
    return log;
  }

  /** The command line with the ports replaced, for the results file. */
  String commandLine() {
    return String.join(" ", commandLine)
        .replace(Integer.toString(port), "<port>")
        .replace(Integer.toString(managementPort), "<management-port>")
        .replace(TOKEN_KEY, "<test-key>");
  }

  /** Lines of the gateway's log at WARN or ERROR so far. */
  List<String> warnings() {
    try {
      return Files.readAllLines(log).stream()
          .filter(line -> line.contains(" WARN ") || line.contains(" ERROR "))
          .toList();
    } catch (IOException e) {
      return List.of("cannot read " + log + ": " + e);
    }
  }

  private void awaitReady() {
    URI probe = URI.create("http://127.0.0.1:" + managementPort + "/actuator/health/readiness");
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    HttpRequest request = HttpRequest.newBuilder(probe).timeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "the gateway exited with code " + process.exitValue() + "; see " + log);
      }
      try {
        if (client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException notYet) {
        // Not listening yet.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while the gateway started", e);
      }
      Pause.millis(250);
    }
    throw new IllegalStateException(
        "the gateway was not ready within " + READY_TIMEOUT + "; see " + log);
  }

  /** Stops the gateway with SIGTERM, then SIGKILL; safe to call twice. */
  @Override
  public void close() {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
