package io.anteroom.gateway.outage;

import io.anteroom.gateway.Visitor;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Client threads sending requests to one gateway path until closed, each request with the visitor's
 * client timeout, recording every answer: holder threads send a visitor who holds a pass, newcomer
 * threads a new browser each time (cookies cleared, a unique {@code n} query parameter so the
 * origin's log shows which newcomers reached it). Bounded: each thread pauses between requests and
 * every thread stops on close.
 */
final class LoadRun implements AutoCloseable {

  /** Who sent a request. */
  enum Kind {
    HOLDER,
    NEWCOMER
  }

  /**
   * One request and its answer.
   *
   * @param n the newcomer's query marker, or null
   * @param status the HTTP status, or 0 when the client failed (timeout, connection error)
   * @param error what the client failed with, or null
   */
  record Sample(
      Kind kind,
      String n,
      long startNanos,
      long endNanos,
      int status,
      String retryAfter,
      String originSaw,
      String state,
      String body,
      String error) {

    long millis() {
      return TimeUnit.NANOSECONDS.toMillis(endNanos - startNanos);
    }

    boolean within(long fromNanos, long toNanos) {
      return startNanos >= fromNanos && endNanos <= toNanos;
    }
  }

  private static final Duration PAUSE = Duration.ofMillis(20);

  private final ExecutorService threads;
  private final AtomicBoolean running = new AtomicBoolean(true);
  private final Queue<Sample> samples = new ConcurrentLinkedQueue<>();
  private final AtomicLong newcomers = new AtomicLong();
  private final String path;

  /**
   * @param holders visitors that hold a pass for {@code path}, one thread each
   * @param newcomerThreads threads of newcomers
   */
  LoadRun(int port, String path, List<Visitor> holders, int newcomerThreads) {
    this.path = path;
    this.threads = Executors.newFixedThreadPool(holders.size() + newcomerThreads);
    for (Visitor holder : holders) {
      threads.execute(() -> loop(holder, Kind.HOLDER));
    }
    for (int i = 0; i < newcomerThreads; i++) {
      Visitor newcomer = new Visitor(port);
      threads.execute(() -> loop(newcomer, Kind.NEWCOMER));
    }
  }

  private void loop(Visitor visitor, Kind kind) {
    while (running.get()) {
      samples.add(send(visitor, kind));
      LockSupport.parkNanos(PAUSE.toNanos());
    }
  }

  private Sample send(Visitor visitor, Kind kind) {
    String n = null;
    String target = path;
    if (kind == Kind.NEWCOMER) {
      visitor.clearCookies();
      n = Long.toString(newcomers.incrementAndGet());
      target = path + "?n=" + n;
    }
    long start = System.nanoTime();
    try {
      HttpResponse<String> response = visitor.json(target);
      String body = response.body();
      return new Sample(
          kind,
          n,
          start,
          System.nanoTime(),
          response.statusCode(),
          response.headers().firstValue("Retry-After").orElse(null),
          response.headers().firstValue("X-Origin-Saw").orElse(null),
          Visitor.text(body, "state"),
          body.length() > 200 ? body.substring(0, 200) : body,
          null);
    } catch (RuntimeException e) {
      return new Sample(kind, n, start, System.nanoTime(), 0, null, null, null, null, e.toString());
    }
  }

  /** Every request answered so far. */
  List<Sample> samples() {
    return new ArrayList<>(samples);
  }

  /** Stops every thread and waits for requests in flight. */
  @Override
  public void close() throws InterruptedException {
    running.set(false);
    threads.shutdown();
    if (!threads.awaitTermination(30, TimeUnit.SECONDS)) {
      threads.shutdownNow();
    }
  }

  /** Lets the load run for {@code duration} on the calling thread. */
  static void hold(Duration duration) {
    long end = System.nanoTime() + duration.toNanos();
    for (long left = duration.toNanos(); left > 0; left = end - System.nanoTime()) {
      LockSupport.parkNanos(left);
    }
  }
}
