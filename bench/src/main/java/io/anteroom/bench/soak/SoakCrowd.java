package io.anteroom.bench.soak;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Steady visitors through one gateway: newcomers join the line of {@code /products/1} while fewer
 * than {@code line} wait, every waiting visitor asks where it stands every few seconds as the
 * waiting page would (and loads the page again when its place is gone), and every admitted visitor
 * fetches the page once a second for a few seconds with its pass. Answers are counted by kind.
 */
final class SoakCrowd implements AutoCloseable {

  private static final Pattern STATE = Pattern.compile("\"state\"\\s*:\\s*\"([a-z-]+)\"");
  private static final String PAGE = "/products/1";
  private static final String STATUS = "/_anteroom/status?room=shop";
  private static final int PASS_USES = 5;

  /** What the crowd has seen, counted. */
  final LongAdder requests = new LongAdder();

  final LongAdder joined = new LongAdder();
  final LongAdder admitted = new LongAdder();
  final LongAdder reachedOrigin = new LongAdder();
  final LongAdder placeGone = new LongAdder();
  final LongAdder policyAnswers = new LongAdder();
  final LongAdder passSentBack = new LongAdder();
  final LongAdder otherErrors = new LongAdder();
  final List<String> errorSamples = new java.util.concurrent.CopyOnWriteArrayList<>();

  private final String gateway;
  private final int line;
  private final long pollMillis;
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final ConcurrentLinkedQueue<Visitor> waiting = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<Visitor> holders = new ConcurrentLinkedQueue<>();
  private final ExecutorService pool = Executors.newFixedThreadPool(24);
  private final AtomicInteger serial = new AtomicInteger();

  /** One browser: its cookies, when it acts next, and how often it used its pass. */
  private static final class Visitor {
    final Map<String, String> cookies = new LinkedHashMap<>();
    volatile long dueAt;
    int uses;
  }

  SoakCrowd(String gateway, int line, Duration poll) {
    this.gateway = gateway;
    this.line = line;
    this.pollMillis = poll.toMillis();
  }

  int waiting() {
    return waiting.size();
  }

  /** One round: newcomers up to the line, then everyone whose turn it is; waits for the lot. */
  void round(long now) {
    List<Future<?>> work = new ArrayList<>();
    int missing = Math.min(20, line - waiting.size());
    for (int i = 0; i < missing; i++) {
      work.add(pool.submit(this::join));
    }
    for (Visitor visitor : waiting) {
      if (visitor.dueAt <= now) {
        visitor.dueAt = now + pollMillis;
        work.add(pool.submit(() -> poll(visitor)));
      }
    }
    for (Visitor visitor : holders) {
      if (visitor.dueAt <= now) {
        visitor.dueAt = now + 1_000;
        work.add(pool.submit(() -> use(visitor)));
      }
    }
    for (Future<?> future : work) {
      try {
        future.get();
      } catch (Exception e) {
        otherErrors.increment();
      }
    }
  }

  private void join() {
    Visitor visitor = new Visitor();
    visitor.dueAt = System.currentTimeMillis() + pollMillis + serial.incrementAndGet() % pollMillis;
    Answer answer = get(visitor, PAGE);
    if (answer == null) {
      return;
    }
    joined.increment();
    switch (answer.kind()) {
      case ORIGIN -> {
        admitted.increment();
        reachedOrigin.increment();
        holder(visitor);
      }
      case WAITING -> waiting.add(visitor);
      default -> {}
    }
  }

  private void poll(Visitor visitor) {
    Answer answer = get(visitor, STATUS);
    if (answer == null) {
      return;
    }
    switch (answer.kind()) {
      case ADMITTED -> {
        waiting.remove(visitor);
        admitted.increment();
        Answer page = get(visitor, PAGE);
        if (page != null && page.kind() == Kind.ORIGIN) {
          reachedOrigin.increment();
          holder(visitor);
        }
      }
      case GONE -> {
        placeGone.increment();
        Answer again = get(visitor, PAGE);
        if (again != null && again.kind() == Kind.ORIGIN) {
          waiting.remove(visitor);
          admitted.increment();
          reachedOrigin.increment();
          holder(visitor);
        }
      }
      default -> {}
    }
  }

  private void holder(Visitor visitor) {
    visitor.dueAt = System.currentTimeMillis() + 1_000;
    holders.add(visitor);
  }

  private void use(Visitor visitor) {
    Answer answer = get(visitor, PAGE);
    if (answer != null && answer.kind() == Kind.ORIGIN) {
      reachedOrigin.increment();
    } else if (answer != null && answer.kind() == Kind.WAITING) {
      passSentBack.increment();
    }
    if (++visitor.uses >= PASS_USES || (answer != null && answer.kind() == Kind.WAITING)) {
      holders.remove(visitor);
    }
  }

  enum Kind {
    ORIGIN,
    WAITING,
    ADMITTED,
    GONE,
    POLICY,
    OTHER
  }

  record Answer(Kind kind, int status) {}

  private Answer get(Visitor visitor, String path) {
    requests.increment();
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(gateway + path))
            .timeout(Duration.ofSeconds(10))
            .header("Accept", "application/json");
    if (!visitor.cookies.isEmpty()) {
      StringBuilder cookie = new StringBuilder();
      visitor.cookies.forEach(
          (k, v) -> cookie.append(cookie.isEmpty() ? "" : "; ").append(k).append('=').append(v));
      request.header("Cookie", cookie.toString());
    }
    HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (Exception e) {
      error("GET " + path + ": " + e);
      return null;
    }
    for (String set : response.headers().allValues("set-cookie")) {
      String pair = set.split(";", 2)[0];
      int eq = pair.indexOf('=');
      if (eq > 0) {
        String name = pair.substring(0, eq).trim();
        String value = pair.substring(eq + 1).trim();
        if (value.isEmpty() || set.toLowerCase(java.util.Locale.ROOT).contains("max-age=0")) {
          visitor.cookies.remove(name);
        } else {
          visitor.cookies.put(name, value);
        }
      }
    }
    Matcher state = STATE.matcher(response.body());
    String named = state.find() ? state.group(1) : "";
    int status = response.statusCode();
    if (status == 200 && named.isEmpty()) {
      return new Answer(Kind.ORIGIN, status);
    }
    if (status == 200 && (named.equals("waiting") || named.equals("queued"))) {
      return new Answer(Kind.WAITING, status);
    }
    if (status == 200 && named.equals("admitted")) {
      return new Answer(Kind.ADMITTED, status);
    }
    if (status == 404 && named.equals("unknown")) {
      return new Answer(Kind.GONE, status);
    }
    if (status == 503 && named.equals("unavailable")) {
      policyAnswers.increment();
      return new Answer(Kind.POLICY, status);
    }
    error(
        path
            + " answered "
            + status
            + " "
            + response.body().substring(0, Math.min(160, response.body().length())));
    return new Answer(Kind.OTHER, status);
  }

  private void error(String what) {
    otherErrors.increment();
    if (errorSamples.size() < 10) {
      errorSamples.add(what);
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
