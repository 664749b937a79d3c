package io.anteroom.gateway.scale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayApp;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * People, not page views, across two gateways and two workers on one Redis: visitors who each
 * browse one to six products of a room whose products' queues are off (turned on only while the
 * room is full and someone waits), every request on either gateway, while the room's total active
 * users and new users per minute both bind. What Redis executed is read back through {@code
 * MONITOR} and replayed ({@link RoomReplay}): after every command Redis ran, the room's active
 * users stay within the limit; each visitor who got in became a new user, and one who opened
 * several products without waiting in a later line longer than the idle limit (which ends their
 * time in the room) exactly once; new users, fewer than the products opened, keep the room's rate
 * on its bucket's clock; and visitors who keep browsing their last product past the session length
 * are never turned away and are still counted when they stop. Counting a session per item, as the
 * room did before, fails the "exactly once" and "fewer than the products" checks.
 */
@SystemTest
class RoomBrowsingManyInstancesIntegrationTests {

  static final String ROOM = "shop";
  static final int TOTAL = 8;
  static final double RATE = 4; // new-users-per-minute 240: a bucket of 4
  static final double BURST = 4;
  static final String SESSION = "5s";
  static final long IDLE_LIMIT_MS = 5_500;
  static final int VISITORS = 36;
  static final int LINGERERS = 2;
  static final Duration LINGER = Duration.ofSeconds(14);
  static final long[] WINDOWS_MS = {250, 1_000, 2_000, 5_000};

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension final WireMockOrigin origin = new WireMockOrigin();

  final QueueKeys keys = new QueueKeys("wr");
  Instances instances;

  @BeforeEach
  void roomSettings() {
    try (RedisConnector connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(2), Duration.ofSeconds(2), 1000))) {
      new RedisSettingsStore(connector.commands(), keys)
          .put(
              ROOM,
              null,
              Map.of(
                  "new-users-per-minute", "" + (int) (RATE * 60),
                  "total-active-users", "" + TOTAL,
                  "max-active", "" + TOTAL,
                  "admit-per-second", "" + (int) RATE,
                  "session-duration", SESSION,
                  "abandon-after", "10m",
                  "cool-down", "1s"))
          .block();
    }
    instances = new Instances("room-browsing", redis.uri());
  }

  @AfterEach
  void stopEverything() throws Exception {
    instances.close();
  }

  /**
   * What one visitor did: their id, the products they opened of those they wanted, the longest they
   * waited in a line after their first product, and, for one who kept browsing, whether the room
   * still counted them when they stopped.
   */
  record Visit(
      String visitor, int opened, int wanted, long longestLaterWaitMs, boolean countedAtTheEnd) {}

  @Test
  void visitorsBrowsingManyProductsEachCountOnceAcrossTwoGatewaysAndTwoWorkers() throws Exception {
    RedisMonitor monitor = instances.keep(new RedisMonitor(redis.host(), redis.port()));
    GatewayApp east = instances.keep(new GatewayApp(redis.uri(), origin));
    GatewayApp west = instances.keep(new GatewayApp(redis.uri(), origin));
    for (GatewayApp gateway : List.of(east, west)) {
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  gateway.bean(ActiveQueueMirror.class).isKnown()
                      && gateway.bean(RoomPolicyMirror.class).policy(ROOM).budget().limited());
    }
    instances.startWorker(redis.uri(), "100ms");
    instances.startWorker(redis.uri(), "100ms");
    TokenCodec tokens = east.bean(TokenCodec.class);
    RunningSampler sampler = instances.keep(new RunningSampler(redis.uri(), keys.sessions(ROOM)));
    instances.mark("start");

    ExecutorService crowd = Executors.newFixedThreadPool(12);
    List<Future<Visit>> browsing = new ArrayList<>();
    Map<String, Integer> lingerers = new ConcurrentHashMap<>();
    Random random = new Random(34);
    for (int i = 0; i < VISITORS; i++) {
      int wanted = 1 + random.nextInt(6);
      List<String> products = products(random, wanted);
      boolean lingers = i < LINGERERS;
      int first = i % 2 == 0 ? east.port() : west.port();
      int second = i % 2 == 0 ? west.port() : east.port();
      browsing.add(
          crowd.submit(
              () -> {
                Visitor visitor = new Visitor(first);
                int opened = 0;
                long longestLaterWait = 0;
                for (String product : products) {
                  long started = System.nanoTime();
                  if (open(visitor.at(opened % 2 == 0 ? first : second), product)) {
                    if (opened > 0) {
                      longestLaterWait =
                          Math.max(longestLaterWait, (System.nanoTime() - started) / 1_000_000);
                    }
                    opened++;
                  }
                }
                String id = visitorId(tokens, visitor);
                boolean counted = true;
                if (lingers) {
                  lingerers.merge(id, 0, Integer::sum);
                  long until = System.nanoTime() + LINGER.toNanos();
                  int n = 0;
                  while (System.nanoTime() < until) {
                    Thread.sleep(700);
                    HttpResponse<String> again =
                        visitor
                            .at(n++ % 2 == 0 ? second : first)
                            .json(products.get(products.size() - 1));
                    if (!passed(again)) {
                      lingerers.merge(id, 1, Integer::sum);
                    }
                  }
                  counted = instances.redis().zscore(keys.sessions(ROOM), id) != null;
                }
                return new Visit(id, opened, products.size(), longestLaterWait, counted);
              }));
      Thread.sleep(150);
    }
    List<Visit> visits = new ArrayList<>();
    for (Future<Visit> visit : browsing) {
      visits.add(visit.get(180, TimeUnit.SECONDS));
    }
    crowd.shutdown();
    instances.mark("end");
    sampler.close();
    instances.workers.forEach(worker -> worker.kill());
    instances.workers.clear();
    List<RedisMonitor.Command> executed = monitor.stop();
    RoomReplay room = RoomReplay.of(keys.sessions(ROOM), keys.budget(ROOM), executed);

    SoftAssertions softly = new SoftAssertions();
    Set<String> inside = visits.stream().map(Visit::visitor).collect(Collectors.toSet());
    long pages = visits.stream().mapToLong(Visit::opened).sum();
    instances.report(
        "%d visitors opened %d products; %d new users replayed; most active users %d (sampled %d)",
        inside.size(), pages, room.admissions().size(), room.maxSessions(), sampler.max());
    softly
        .assertThat(visits)
        .as("everyone opened every product")
        .allMatch(v -> v.opened() == v.wanted());
    softly.assertThat(pages).as("more products than people").isGreaterThan(2L * VISITORS);
    Map<String, Long> newUsers =
        room.admissions().stream()
            .collect(Collectors.groupingBy(RoomReplay.Admission::visitor, Collectors.counting()));
    softly
        .assertThat(newUsers.keySet())
        .as("new users")
        .containsExactlyInAnyOrderElementsOf(inside);
    // One who waited in a later product's line longer than the idle limit was no longer active in
    // the room, and counts again when let in; nobody else does, however many products they opened.
    List<Visit> browsedOn =
        visits.stream()
            .filter(v -> v.opened() > 1 && v.longestLaterWaitMs() < IDLE_LIMIT_MS - 500)
            .toList();
    instances.report(
        "%d of %d visitors opened several products and never waited an idle limit after the first",
        browsedOn.size(), visits.size());
    softly.assertThat(browsedOn).as("visitors who browsed on").hasSizeGreaterThanOrEqualTo(5);
    softly
        .assertThat(browsedOn)
        .as("each of them a new user exactly once")
        .allSatisfy(v -> assertThat(newUsers.get(v.visitor())).as(v.toString()).isEqualTo(1));
    softly
        .assertThat((long) room.admissions().size())
        .as("new users, not page views")
        .isLessThan(pages);
    softly.assertThat(room.maxSessions()).as("active users, replayed").isLessThanOrEqualTo(TOTAL);
    softly.assertThat(sampler.max()).as("active users, sampled").isLessThanOrEqualTo(TOTAL);
    softly.assertThat(room.maxSessions()).as("total active users was reached").isEqualTo(TOTAL);
    softly
        .assertThat(lingerers)
        .as("browsing past the session length, never turned away")
        .allSatisfy((id, refused) -> assertThat(refused).as(id).isZero());
    softly
        .assertThat(visits.subList(0, LINGERERS))
        .as("those who kept browsing, still counted when they stopped")
        .allMatch(Visit::countedAtTheEnd);
    List<Long> times = room.admissions().stream().map(RoomReplay.Admission::bucketMs).toList();
    for (long window : WINDOWS_MS) {
      int peak = Timeline.peak(times, window);
      double bound = RATE * window / 1000.0 + BURST;
      instances.report("room: peak new users in %d ms = %d, bound %.1f", window, peak, bound);
      softly.assertThat((double) peak).as("new users in %d ms", window).isLessThanOrEqualTo(bound);
    }
    softly.assertAll();
  }

  /** {@code wanted} distinct products among 1 to 12. */
  private static List<String> products(Random random, int wanted) {
    List<Integer> all = new ArrayList<>();
    for (int p = 1; p <= 12; p++) {
      all.add(p);
    }
    Collections.shuffle(all, random);
    return all.subList(0, wanted).stream().map(p -> "/products/" + p).toList();
  }

  /** Opens the product, waiting in its line while the room is full; false when never let in. */
  private static boolean open(Visitor visitor, String product) throws InterruptedException {
    long until = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    while (System.nanoTime() < until) {
      if (passed(visitor.json(product))) {
        return true;
      }
      Thread.sleep(200);
    }
    return false;
  }

  private static boolean passed(HttpResponse<String> answer) {
    return answer.statusCode() == 200 && answer.body().contains("Product page");
  }

  @SuppressWarnings("unchecked")
  private static String visitorId(TokenCodec tokens, Visitor visitor) {
    Function<String, Pass> read =
        token -> ((Verified.Valid<Pass>) tokens.readPass(token, ROOM)).value();
    return read.apply(visitor.cookie("anteroom_pass_shop")).visitor();
  }
}
