package io.anteroom.gateway.scale;

import io.anteroom.gateway.Visitor;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Browsers in front of several gateways, as behind a load balancer that does not stick: each
 * visitor joins the line of {@code /products/<item>} on one gateway and asks where it stands on the
 * next, alternating between the status endpoint and a reload of the page, and fetches the page once
 * admitted. Only the front of each line is asked, as often as a waiting page would; the rest wait
 * quietly (their places are kept far longer than a run lasts).
 */
final class Crowd implements AutoCloseable {

  private static final String STATUS = "/_anteroom/status?room=shop";
  private static final int ASKED_AT_ONCE = 20;

  private final int[] ports;
  private final Map<String, ConcurrentLinkedQueue<Browser>> lines = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> reachedOrigin = new ConcurrentHashMap<>();
  private final List<String> problems = new CopyOnWriteArrayList<>();
  private final AtomicInteger arrivals = new AtomicInteger();
  private final AtomicInteger requests = new AtomicInteger();
  private final ScheduledExecutorService timers = Executors.newScheduledThreadPool(3);
  // Newcomers and the line's front have threads of their own, so that asking never starves joining.
  private final ExecutorService joiners = Executors.newFixedThreadPool(4);
  private final ExecutorService askers = Executors.newFixedThreadPool(4);
  private final List<ScheduledFuture<?>> joining = new CopyOnWriteArrayList<>();
  private volatile boolean closed;

  /** One visitor: the gateway it joined on and its round of asking. */
  private record Browser(Visitor visitor, String item, int home, AtomicInteger asked) {}

  Crowd(int... ports) {
    this.ports = ports.clone();
  }

  /**
   * From now on, newcomers keep joining the line of {@code item} so that at least {@code atLeast}
   * wait in it as far as they know: the line moves and never runs dry.
   */
  void keepWaiting(String item, int atLeast) {
    AtomicInteger joining = new AtomicInteger();
    this.joining.add(
        timers.scheduleWithFixedDelay(
            () -> {
              int missing = atLeast - waiting(item) - joining.get();
              for (int i = 0; i < missing; i++) {
                joining.incrementAndGet();
                joiners.execute(
                    () -> {
                      try {
                        join(item);
                      } finally {
                        joining.decrementAndGet();
                      }
                    });
              }
            },
            0,
            200,
            TimeUnit.MILLISECONDS));
  }

  /** No more newcomers from {@link #keepWaiting}: the lines drain; those in them keep asking. */
  void stopJoining() {
    joining.forEach(future -> future.cancel(false));
  }

  /**
   * One newcomer on {@code item} now, on the next gateway in turn: true when they got the page at
   * once; false when they wait (and ask from then on, like the others) or had an answer no visitor
   * should get.
   */
  boolean arrive(String item) {
    return join(item);
  }

  /** From now on, the front of each line asks where it stands a few times a second. */
  void keepAsking() {
    keepAsking(ASKED_AT_ONCE, Duration.ofMillis(500));
  }

  /**
   * From now on, the first {@code atOnce} of each line ask where they stand every {@code every}.
   */
  void keepAsking(int atOnce, Duration every) {
    timers.scheduleWithFixedDelay(
        () -> askFronts(atOnce), 0, every.toMillis(), TimeUnit.MILLISECONDS);
  }

  private boolean join(String item) {
    int home = arrivals.getAndIncrement() % ports.length;
    Visitor visitor = new Visitor(ports[home]);
    Browser browser = new Browser(visitor, item, home, new AtomicInteger());
    HttpResponse<String> first = call(visitor, "/products/" + item);
    if (first == null) {
      return false;
    }
    if (first.body().contains("Product page")) {
      reachedOrigin.computeIfAbsent(item, i -> new AtomicInteger()).incrementAndGet();
      return true;
    } else if ("waiting".equals(Visitor.text(first.body(), "state"))) {
      lines.computeIfAbsent(item, i -> new ConcurrentLinkedQueue<>()).add(browser);
    } else {
      problems.add("join " + item + ": " + first.statusCode() + " " + first.body());
    }
    return false;
  }

  private void askFronts(int atOnce) {
    List<Future<?>> asks = new ArrayList<>();
    for (ConcurrentLinkedQueue<Browser> line : lines.values()) {
      line.stream().limit(atOnce).forEach(b -> asks.add(askers.submit(() -> ask(b))));
    }
    for (Future<?> ask : asks) {
      try {
        ask.get();
      } catch (Exception e) {
        if (!closed) {
          problems.add("ask: " + e);
        }
      }
    }
  }

  /** Asks on the next gateway; once in, fetches the page on its own and leaves the line. */
  private void ask(Browser browser) {
    Visitor elsewhere = browser.visitor().at(ports[(browser.home() + 1) % ports.length]);
    String page = "/products/" + browser.item();
    boolean viaStatus = browser.asked().getAndIncrement() % 2 == 0;
    HttpResponse<String> answer = call(elsewhere, viaStatus ? STATUS : page);
    if (answer == null) {
      return;
    }
    String state = Visitor.text(answer.body(), "state");
    if (viaStatus && "unknown".equals(state)) {
      // The place is gone: the waiting page loads its URL again, which joins anew.
      answer = call(elsewhere, page);
      if (answer == null) {
        return;
      }
      state = Visitor.text(answer.body(), "state");
    }
    if (viaStatus && "admitted".equals(state)) {
      answer = call(browser.visitor(), page);
      if (answer == null) {
        return;
      }
    } else if ("waiting".equals(state)) {
      return;
    }
    if (answer.body().contains("Product page")) {
      reachedOrigin.computeIfAbsent(browser.item(), i -> new AtomicInteger()).incrementAndGet();
      lines.get(browser.item()).remove(browser);
    } else {
      problems.add("ask " + browser.item() + ": " + answer.statusCode() + " " + answer.body());
    }
  }

  private HttpResponse<String> call(Visitor visitor, String path) {
    if (closed) {
      return null;
    }
    requests.incrementAndGet();
    try {
      HttpResponse<String> response = visitor.json(path);
      boolean placeGone =
          response.statusCode() == 404 && "unknown".equals(Visitor.text(response.body(), "state"));
      if (response.statusCode() != 200 && !(placeGone && path.startsWith(STATUS))) {
        problems.add(path + " answered " + response.statusCode() + " " + response.body());
        return null;
      }
      return response;
    } catch (RuntimeException e) {
      if (closed) {
        return null;
      }
      problems.add(Instant.now() + " " + visitor.base() + path + " failed: " + e.getCause());
      return null;
    }
  }

  /** Visitors of {@code item} who got the product page. */
  int reachedOrigin(String item) {
    AtomicInteger count = reachedOrigin.get(item);
    return count == null ? 0 : count.get();
  }

  /** Visitors still in the line of {@code item} as far as they know. */
  int waiting(String item) {
    ConcurrentLinkedQueue<Browser> line = lines.get(item);
    return line == null ? 0 : line.size();
  }

  int requests() {
    return requests.get();
  }

  /** Answers no visitor should have had: errors, unexpected states. */
  List<String> problems() {
    return List.copyOf(problems);
  }

  @Override
  public void close() {
    // Requests on the way are let finish, so what the crowd counts is what the origin saw.
    closed = true;
    timers.shutdownNow();
    joiners.shutdown();
    askers.shutdown();
    try {
      joiners.awaitTermination(20, TimeUnit.SECONDS);
      askers.awaitTermination(20, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
