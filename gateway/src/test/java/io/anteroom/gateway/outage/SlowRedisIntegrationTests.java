package io.anteroom.gateway.outage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.QueueFixtures;
import io.anteroom.gateway.RedisGuard;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.outage.LoadRun.Kind;
import io.anteroom.gateway.outage.LoadRun.Sample;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.config.AnteroomProperties;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.LatencyProxy;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreaker.State;
import io.github.resilience4j.circuitbreaker.CircuitBreaker.StateTransition;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A real gateway under load while its Redis answers slowly but within the command timeout: every
 * reply is held back by a {@link LatencyProxy} for 100 ms, then 400 ms, then not at all. At 100 ms
 * visitors wait in line as usual and the breaker stays closed; at 400 ms the breaker opens on slow
 * calls (above {@code slow-call-duration-threshold}) and newcomers get the room's failure policy at
 * once, the half-open trials finding Redis still slow open it again; once Redis is fast again the
 * breaker closes by itself and newcomers wait in line. Throughout, every answer comes within the
 * command timeout plus {@value #MARGIN_MILLIS} ms, pass holders get the origin, and the JVM's
 * threads, the connections to Redis and the replies in flight stay bounded. The figures of each
 * phase are printed and written to {@value #REPORT}.
 */
@GatewayIntegrationTest
@SystemTest
class SlowRedisIntegrationTests {

  static final long MARGIN_MILLIS = 2000;
  static final String REPORT = "target/slow-redis.txt";
  static final String PATH = "/products/1";
  static final int HOLDERS = 2;
  static final int NEWCOMER_THREADS = 4;

  /** Threads the JVM may gain over the phase before: a pile-up would be one per request. */
  static final int THREAD_SLACK = 16;

  /** Replies in flight at once: the client threads' requests and the gateway's own refreshes. */
  static final int HELD_BOUND = 100;

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();
  static final LatencyProxy proxy = LatencyProxy.to(redis::port);

  @LocalServerPort int port;
  @Autowired AnteroomProperties anteroom;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicies policies;
  @Autowired SettingsStore settings;
  @Autowired QueueStore store;
  @Autowired TokenCodec tokens;
  @Autowired CircuitBreakerRegistry breakers;

  final QueueId queue = QueueId.of("shop", "1");
  final List<Transition> transitions = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void freshReport() throws IOException {
    Files.deleteIfExists(Path.of(REPORT));
  }

  @AfterAll
  static void closeProxy() {
    proxy.close();
  }

  @Test
  void slowRedisKeepsAnswersBoundedOpensTheBreakerAndFastRedisClosesIt() throws Exception {
    List<Visitor> holders = prepare();
    CircuitBreaker breaker = breakers.circuitBreaker(RedisGuard.BREAKER);
    breaker.reset();
    breaker
        .getEventPublisher()
        .onStateTransition(
            e -> transitions.add(new Transition(System.nanoTime(), e.getStateTransition())));
    long bound = anteroom.redis().commandTimeout().toMillis() + MARGIN_MILLIS;
    List<Phase> phases = new ArrayList<>();
    try (LoadRun load = new LoadRun(port, PATH, holders, NEWCOMER_THREADS);
        Sampler sampler = new Sampler()) {
      Phase fast = phases(phases, "fast", Duration.ZERO, sampler);
      LoadRun.hold(Duration.ofSeconds(2));
      fast.end(sampler);

      Phase slow100 = phases(phases, "100 ms", Duration.ofMillis(100), sampler);
      LoadRun.hold(Duration.ofSeconds(6));
      slow100.end(sampler);

      Phase slow400 = phases(phases, "400 ms", Duration.ofMillis(400), sampler);
      await().atMost(Duration.ofSeconds(30)).until(() -> breaker.getState() == State.OPEN);
      // Long enough for the breaker to turn half-open (after 2 s) and try Redis again.
      LoadRun.hold(Duration.ofSeconds(5));
      slow400.end(sampler);

      Phase recovery = phases(phases, "fast again", Duration.ZERO, sampler);
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> breaker.getState() == State.CLOSED);
      LoadRun.hold(Duration.ofSeconds(3));
      recovery.end(sampler);

      for (Phase phase : phases) {
        phase.samples = load.samples().stream().filter(s -> phase.holds(s)).toList();
      }
    }
    report(phases, bound, breaker);

    Phase fast = phases.get(0);
    Phase slow100 = phases.get(1);
    Phase slow400 = phases.get(2);
    Phase recovery = phases.get(3);
    for (Phase phase : phases) {
      assertThat(phase.samples)
          .as("%s: client errors and timeouts", phase.name)
          .allMatch(s -> s.error() == null);
      assertThat(phase.of(Kind.HOLDER))
          .as("%s: pass holders reach the origin", phase.name)
          .isNotEmpty()
          .allMatch(s -> s.status() == 200 && s.state() == null);
      assertThat(phase.of(Kind.NEWCOMER))
          .as("%s: newcomers wait in line, or get the failure policy's 503", phase.name)
          .isNotEmpty()
          .allMatch(s -> "waiting".equals(s.state()) || unavailable(s));
      assertThat(phase.max()).as("%s: slowest answer, ms", phase.name).isLessThanOrEqualTo(bound);
      assertThat(phase.threads)
          .as("%s: live threads, at most %d more than before", phase.name, THREAD_SLACK)
          .isLessThanOrEqualTo(phase.threadsBefore + THREAD_SLACK);
      assertThat(phase.connections)
          .as("%s: connections to Redis, no more than at the start", phase.name)
          .isLessThanOrEqualTo(fast.connectionsBefore);
      assertThat(phase.held).as("%s: replies in flight", phase.name).isLessThan(HELD_BOUND);
    }
    assertThat(fast.changes()).isEmpty();
    assertThat(slow100.changes()).as("100 ms is below the slow-call threshold").isEmpty();
    assertThat(slow100.of(Kind.NEWCOMER)).allMatch(s -> "waiting".equals(s.state()));
    assertThat(slow400.changes())
        .as("opened on slow calls; still slow when half-open, so opened again, never closed")
        .startsWith(StateTransition.CLOSED_TO_OPEN)
        .contains(StateTransition.OPEN_TO_HALF_OPEN, StateTransition.HALF_OPEN_TO_OPEN)
        .doesNotContain(StateTransition.HALF_OPEN_TO_CLOSED);
    assertThat(slow400.of(Kind.NEWCOMER))
        .as("newcomers refused at once while it was open")
        .anyMatch(SlowRedisIntegrationTests::unavailable);
    assertThat(recovery.changes()).endsWith(StateTransition.HALF_OPEN_TO_CLOSED);
    assertThat(Visitor.text(new Visitor(port).json(PATH).body(), "state"))
        .as("a newcomer waits in line again")
        .isEqualTo("waiting");
    await().atMost(Duration.ofSeconds(10)).until(() -> proxy.held() == 0);
  }

  /**
   * The queue on with a long line, so every newcomer waits while Redis answers; pass holders minted
   * as the gateway mints them.
   */
  private List<Visitor> prepare() {
    settings.put("shop", null, Map.of("max-active", "100000")).block();
    active.activate(queue, Activation.MANUAL).block();
    QueueFixtures.lineUp(store, policies, queue, 1000);
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                mirror.isActive(queue)
                    && "waiting"
                        .equals(Visitor.text(new Visitor(port).json(PATH).body(), "state")));
    List<Visitor> holders = QueueFixtures.passHolders(port, tokens, HOLDERS);
    return holders;
  }

  private Phase phases(List<Phase> phases, String name, Duration delay, Sampler sampler) {
    Phase phase = new Phase(name, delay, sampler);
    proxy.delay(delay);
    phases.add(phase);
    return phase;
  }

  private static boolean unavailable(Sample s) {
    return s.status() == 503 && "5".equals(s.retryAfter()) && "unavailable".equals(s.state());
  }

  private void report(List<Phase> phases, long bound, CircuitBreaker breaker) throws IOException {
    List<String> lines = new ArrayList<>();
    for (Phase phase : phases) {
      List<Sample> newcomers = phase.of(Kind.NEWCOMER);
      lines.add(
          String.format(
              "slow Redis, %s (replies held %d ms, %d ms long): %d requests (%d by pass"
                  + " holders), newcomers %s, latency ms newcomers p50 %d max %d, pass holders"
                  + " max %d, bound %d; breaker %s; live threads %d before, at most %d;"
                  + " connections to Redis %d before, at most %d; replies in flight at most %d",
              phase.name,
              phase.delay.toMillis(),
              TimeUnit.NANOSECONDS.toMillis(phase.end - phase.start),
              phase.samples.size(),
              phase.of(Kind.HOLDER).size(),
              newcomers.stream()
                  .collect(
                      Collectors.groupingBy(
                          s -> s.status() + " " + s.state(), Collectors.counting())),
              percentile(newcomers, 50),
              max(newcomers),
              max(phase.of(Kind.HOLDER)),
              bound,
              phase.transitions().stream()
                  .map(t -> t.change().getToState() + " at " + t.millis() + " ms")
                  .toList(),
              phase.threadsBefore,
              phase.threads,
              phase.connectionsBefore,
              phase.connections,
              phase.held));
    }
    lines.add(
        String.format(
            "breaker at the end: %s, slow calls in its window %d, not permitted %d",
            breaker.getState(),
            breaker.getMetrics().getNumberOfSlowCalls(),
            breaker.getMetrics().getNumberOfNotPermittedCalls()));
    lines.forEach(System.out::println);
    Files.write(Path.of(REPORT), lines);
  }

  private static long percentile(List<Sample> samples, int percent) {
    List<Long> sorted = samples.stream().map(Sample::millis).sorted().toList();
    return sorted.isEmpty() ? 0 : sorted.get((sorted.size() - 1) * percent / 100);
  }

  private static long max(List<Sample> samples) {
    return samples.stream().mapToLong(Sample::millis).max().orElse(0);
  }

  /** A change of the breaker's state and when it happened. */
  private record Transition(long nanos, StateTransition change) {}

  /** A change of the breaker's state, {@code millis} into a phase. */
  private record PhaseTransition(StateTransition change, long millis) {}

  /** One delay of Redis's replies, its requests and the most the sampler saw meanwhile. */
  private final class Phase {
    final String name;
    final Duration delay;
    final long start = System.nanoTime();
    final int threadsBefore;
    final int connectionsBefore;
    long end = Long.MAX_VALUE;
    int threads;
    int connections;
    int held;
    List<Sample> samples = List.of();

    Phase(String name, Duration delay, Sampler sampler) {
      this.name = name;
      this.delay = delay;
      this.threadsBefore = sampler.threadsNow();
      this.connectionsBefore = proxy.connections();
      sampler.reset();
    }

    void end(Sampler sampler) {
      end = System.nanoTime();
      threads = sampler.threads.get();
      connections = sampler.connections.get();
      held = sampler.held.get();
    }

    boolean holds(Sample sample) {
      return sample.startNanos() >= start && sample.startNanos() < end;
    }

    List<Sample> of(Kind kind) {
      return samples.stream().filter(s -> s.kind() == kind).toList();
    }

    long max() {
      return SlowRedisIntegrationTests.max(samples);
    }

    List<StateTransition> changes() {
      return transitions().stream().map(PhaseTransition::change).toList();
    }

    List<PhaseTransition> transitions() {
      return SlowRedisIntegrationTests.this.transitions.stream()
          .filter(t -> t.nanos() >= start && t.nanos() < end)
          .map(t -> new PhaseTransition(t.change(), (t.nanos() - start) / 1_000_000))
          .toList();
    }
  }

  /** The most live threads, connections through the proxy and replies held, every 20 ms. */
  private static final class Sampler implements AutoCloseable {
    final ThreadMXBean jvm = ManagementFactory.getThreadMXBean();
    final AtomicInteger threads = new AtomicInteger();
    final AtomicInteger connections = new AtomicInteger();
    final AtomicInteger held = new AtomicInteger();
    final AtomicBoolean running = new AtomicBoolean(true);
    final Thread thread;

    Sampler() {
      thread = new Thread(this::run, "slow-redis-sampler");
      thread.setDaemon(true);
      thread.start();
    }

    int threadsNow() {
      return jvm.getThreadCount();
    }

    void reset() {
      threads.set(0);
      connections.set(0);
      held.set(0);
    }

    private void run() {
      while (running.get()) {
        threads.accumulateAndGet(jvm.getThreadCount(), Math::max);
        connections.accumulateAndGet(proxy.connections(), Math::max);
        held.accumulateAndGet(proxy.held(), Math::max);
        LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
      }
    }

    @Override
    public void close() throws InterruptedException {
      running.set(false);
      thread.join();
    }
  }
}
