package io.anteroom.gateway.activation;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Requests to one path at a steady rate from a background thread, each as a new visitor (no
 * cookies), counting what came back: the origin's page, the waiting page, or anything else.
 */
final class Traffic implements AutoCloseable {

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final URI uri;
  private final long intervalNanos;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Map<String, AtomicLong> outcomes = new ConcurrentHashMap<>();
  private final Thread thread;
  private volatile long lastAnswered;

  private Traffic(int port, String path, double perSecond) {
    this.uri = URI.create("http://127.0.0.1:" + port + path);
    this.intervalNanos = (long) (1_000_000_000L / perSecond);
    this.thread = new Thread(this::run, "traffic " + path);
    thread.setDaemon(true);
  }

  /** Starts sending {@code perSecond} requests a second to {@code path}. */
  static Traffic start(int port, String path, double perSecond) {
    Traffic traffic = new Traffic(port, path, perSecond);
    traffic.thread.start();
    return traffic;
  }

  /** Responses that were the origin's page. */
  long origin() {
    return count("origin");
  }

  /** Responses that were the waiting room (waiting or paused). */
  long waiting() {
    return count("waiting");
  }

  /** Responses that were neither, or failed. */
  long other() {
    return count("other");
  }

  /** {@link System#nanoTime()} of the last answer. */
  long lastAnswered() {
    return lastAnswered;
  }

  private long count(String outcome) {
    AtomicLong n = outcomes.get(outcome);
    return n == null ? 0 : n.get();
  }

  private void run() {
    long next = System.nanoTime();
    while (running.get()) {
      outcomes.computeIfAbsent(send(), k -> new AtomicLong()).incrementAndGet();
      lastAnswered = System.nanoTime();
      next += intervalNanos;
      long wait = next - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
      }
    }
  }

  private String send() {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(uri)
                  .header("Accept", "application/json")
                  .timeout(Duration.ofSeconds(5))
                  .GET()
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.body().contains("Product page")) {
        return "origin";
      }
      return response.body().contains("\"position\"") ? "waiting" : "other";
    } catch (Exception e) {
      return "other";
    }
  }

  @Override
  public void close() {
    running.set(false);
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
