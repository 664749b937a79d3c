package io.anteroom.bench.soak;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** One sample of {@link SoakBench}, every 10 s: the apps' heap and threads, Redis and the line. */
record SoakSample(
    long second,
    double gatewayHeapMib,
    int gatewayThreads,
    double workerHeapMib,
    int workerThreads,
    int redisClients,
    long waiting,
    double gatewayLiveMib,
    double workerLiveMib) {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /** The apps' heap and threads, Redis's connections and the line, {@code start} ms on. */
  static SoakSample take(
      long start, String gatewayMetrics, String workerMetrics, SoakRedis redis, boolean afterGc) {
    String gateway = scrape(gatewayMetrics);
    String worker = scrape(workerMetrics);
    int clients = -1;
    try {
      String info = redis.commands().info("clients");
      clients =
          Integer.parseInt(
              info.lines()
                  .filter(l -> l.startsWith("connected_clients:"))
                  .findFirst()
                  .orElse("connected_clients:-1")
                  .substring("connected_clients:".length())
                  .trim());
    } catch (RuntimeException e) {
      // Redis restarting
    }
    double gatewayHeap = sum(gateway, "jvm_memory_used_bytes{area=\"heap\"") / 1048576;
    double workerHeap = sum(worker, "jvm_memory_used_bytes{area=\"heap\"") / 1048576;
    return new SoakSample(
        (System.currentTimeMillis() - start) / 1000,
        gatewayHeap,
        (int) sum(gateway, "jvm_threads_live_threads"),
        workerHeap,
        (int) sum(worker, "jvm_threads_live_threads"),
        clients,
        waiting(redis),
        afterGc ? gatewayHeap : Double.NaN,
        afterGc ? workerHeap : Double.NaN);
  }

  /** A full collection in the app, done when jcmd returns. */
  static void fullGc(long pid) {
    try {
      new ProcessBuilder("jcmd", Long.toString(pid), "GC.run")
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD)
          .start()
          .waitFor();
    } catch (IOException e) {
      throw new IllegalStateException("jcmd is needed for the heap after a full GC", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The length of the line, or -1 while Redis does not answer. */
  static long waiting(SoakRedis redis) {
    try {
      return redis.commands().zcard("wr:{shop}:1:waiting");
    } catch (RuntimeException e) {
      return -1;
    }
  }

  private static String scrape(String url) {
    try {
      return HTTP.send(
              HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
              HttpResponse.BodyHandlers.ofString())
          .body();
    } catch (IOException | InterruptedException e) {
      return "";
    }
  }

  /** The sum of the samples whose line starts with {@code prefix}. */
  private static double sum(String scrape, String prefix) {
    return scrape
        .lines()
        .filter(l -> l.startsWith(prefix))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }
}
