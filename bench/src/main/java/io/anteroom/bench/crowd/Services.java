package io.anteroom.bench.crowd;

import io.anteroom.bench.Args;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The processes {@code bench/crowd.sh} started for the run, from its system properties: the real
 * gateway ({@code java -jar}, {@code config/anteroom.yml}, a fixed test signing key, the queues of
 * {@link CrowdBench} turned on at start) and its redis-server.
 *
 * @param gateway the gateway's base URL
 * @param gatewayPid the gateway's process, for its heap and CPU
 * @param gatewayLog the gateway's log
 * @param gatewayNote the jar, its build and the command line, for the results file
 * @param redisUri the redis-server's URI
 * @param redisPid the redis-server's process, for its CPU
 */
record Services(
    URI gateway,
    long gatewayPid,
    Path gatewayLog,
    String gatewayNote,
    String redisUri,
    long redisPid) {

  static Services fromLauncher() {
    return new Services(
        URI.create(property("bench.gateway")),
        Long.parseLong(property("bench.gateway.pid")),
        Path.of(property("bench.gateway.log")),
        property("bench.gateway.note"),
        property("bench.redis"),
        Long.parseLong(property("bench.redis.pid")));
  }

  URI uri(String pathAndQuery) {
    return gateway.resolve(pathAndQuery);
  }

  /** Lines of the gateway's log at WARN or ERROR so far. */
  List<String> warnings() {
    try {
      return Files.readAllLines(gatewayLog).stream()
          .filter(line -> line.contains(" WARN ") || line.contains(" ERROR "))
          .toList();
    } catch (IOException e) {
      return List.of("cannot read " + gatewayLog + ": " + e);
    }
  }

  private static String property(String name) {
    String value = System.getProperty(name);
    Args.require(value != null, "no -D" + name + ": run the tool with bench/crowd.sh");
    return value;
  }
}
