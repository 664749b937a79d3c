package io.anteroom.gateway.scale;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayApp;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.Activation;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisActiveQueues;
import io.anteroom.queue.policy.RedisSettingsStore;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.SystemTest;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.sync.RedisCommands;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two gateways and two admission workers on one Redis, a line of visitors spread over both
 * gateways, and an origin that fails (503) the first requests of the first visitors admitted, then
 * recovers: those visitors go back to the front each time, are admitted again before everyone who
 * was waiting when they went back, among themselves in the order of the admissions they went back
 * from, and at most reentry-max (2) times each; the third time the origin's 503 reaches them as it
 * is.
 *
 * <p>The order is judged on Redis's own record: each admission's time is the running session's
 * score when the visitor's poll finds it admitted (sessions last 10 minutes, so nothing moves it
 * meanwhile), and who was waiting when a visitor went back is the line as Redis holds it right
 * after. In the first round both workers are killed while the failed visitors go back, the latest
 * admitted first, so all of them wait at the front together; in the second the workers keep
 * admitting.
 */
@SystemTest
class ReentryManyInstancesIntegrationTests {

  static final QueueId QUEUE = QueueId.of("shop", "1");
  static final int FAILED = 4;
  static final int LINE = 12;
  static final int MAX = 2;
  static final String TICK = "100ms";
  static final String FAILING_PATH = "/products/1/buy";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  final QueueKeys keys = new QueueKeys("wr");
  Instances instances;
  RedisCommands<String, String> commands;
  GatewayApp east;
  GatewayApp west;
  TokenCodec tokens;

  /** 4 admissions a second with a burst of one, room for everyone, re-entry as shipped. */
  @BeforeEach
  void roomSettings() {
    try (RedisConnector connector =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofSeconds(2), Duration.ofSeconds(2), 1000))) {
      new RedisSettingsStore(connector.commands(), keys)
          .put(
              "shop",
              null,
              Map.of(
                  "admit-per-second", "4",
                  "admit-burst", "250ms",
                  "max-active", "1000",
                  "session-duration", "10m"))
          .block();
      new RedisActiveQueues(connector.commands(), keys).activate(QUEUE, Activation.MANUAL).block();
    }
    instances = new Instances("reentry", redis.uri());
    commands = instances.redis();
    origin.stubFor(
        get(urlPathEqualTo(FAILING_PATH))
            .willReturn(aResponse().withStatus(503).withBody("sold out for a moment")));
  }

  @AfterEach
  void stopEverything() throws Exception {
    instances.close();
  }

  @Test
  void reentrantsGoBeforeEveryoneWhoWaitedInTheOrderOfTheirAdmissionsAtMostMaxTimes() {
    east = instances.keep(new GatewayApp(redis.uri(), origin));
    west = instances.keep(new GatewayApp(redis.uri(), origin));
    tokens = east.bean(TokenCodec.class);
    for (GatewayApp gateway : List.of(east, west)) {
      await()
          .atMost(Duration.ofSeconds(10))
          .until(() -> gateway.bean(ActiveQueueMirror.class).isActive(QUEUE));
    }
    // Someone who never comes back heads the line, so every person here waits.
    Visitor.lineUpSomeone(east.port(), "/products/1");
    List<Person> people = new ArrayList<>();
    for (int i = 0; i < LINE; i++) {
      people.add(new Person(i, i < FAILED));
    }
    List<Person> failed = people.subList(0, FAILED);

    instances.mark("round one: the failed wait at the front together");
    instances.startWorker(redis.uri(), TICK);
    instances.startWorker(redis.uri(), TICK);
    pollUntil(people, () -> failed.stream().allMatch(p -> p.state == State.HOLDING), true);
    instances.workers.forEach(worker -> worker.kill());
    instances.workers.clear();
    List<Person> latestFirst = new ArrayList<>(failed);
    Collections.reverse(latestFirst);
    latestFirst.forEach(person -> person.ask(people));
    List<String> line = commands.zrange(keys.waiting(QUEUE), 0, -1);
    List<String> expected = new ArrayList<>(failed.stream().map(p -> p.id).toList());
    people.stream().filter(p -> !p.failing && line.contains(p.id)).forEach(p -> expected.add(p.id));
    assertThat(line).as("the line once all went back").containsExactlyElementsOf(expected);
    assertThat(line).hasSizeGreaterThan(FAILED);
    assertThat(Visitor.text(failed.get(0).poll(0), "state")).isEqualTo("waiting");
    assertThat(failed.get(0).lastPoll).contains("\"front\":true", "\"position\":1");

    instances.mark("round two and three: the workers keep admitting");
    instances.startWorker(redis.uri(), TICK);
    instances.startWorker(redis.uri(), TICK);
    pollUntil(people, () -> people.stream().allMatch(p -> p.state == State.DONE), false);
    instances.mark("the origin recovers");
    origin.stubFor(get(urlPathEqualTo(FAILING_PATH)).willReturn(aResponse().withStatus(200)));

    SoftAssertions softly = new SoftAssertions();
    for (Person person : people) {
      int times = person.failing ? MAX : 0;
      softly.assertThat(person.admissions).as("%s admissions", person).hasSize(times + 1);
      softly.assertThat(person.wentBack).as("%s went back", person).hasSize(times);
      softly
          .assertThat(commands.hget(keys.reentries(QUEUE), person.id))
          .as("%s in Redis", person)
          .isEqualTo(times == 0 ? null : Integer.toString(times));
      softly
          .assertThat(person.lastAnswer)
          .as("%s last answer", person)
          .isEqualTo(person.failing ? 503 : 200);
      if (person.failing) {
        softly
            .assertThat(person.request(1).statusCode())
            .as("%s after the origin recovered", person)
            .isEqualTo(200);
      }
    }
    softly.assertThat(commands.hget(keys.state(QUEUE), "reentered")).isEqualTo("8");
    softly
        .assertThat(reentered(east) + reentered(west))
        .as("re-entries counted by the gateways")
        .isEqualTo(FAILED * MAX);
    softly.assertThat(reentered(east)).as("east").isPositive();
    softly.assertThat(reentered(west)).as("west").isPositive();
    for (Person person : failed) {
      for (WentBack back : person.wentBack) {
        beforeEveryoneWhoWaited(softly, people, person, back);
      }
    }
    softly.assertAll();
  }

  /**
   * {@code person}'s next admission after going back came before that of everyone who waited behind
   * the front then; among those at the front, in the order of the admissions they went back from.
   */
  private void beforeEveryoneWhoWaited(
      SoftAssertions softly, List<Person> people, Person person, WentBack back) {
    long next = person.admissions.get(back.times());
    for (Waiting other : back.line()) {
      Person them = people.stream().filter(p -> p.id.equals(other.id())).findFirst().orElse(null);
      if (them == null || them == person || them.admissions.size() <= other.times()) {
        continue;
      }
      long theirs = them.admissions.get(other.times());
      if (!other.front()) {
        softly
            .assertThat(next)
            .as("%s back after %s before %s, who was waiting", person, back.times(), them)
            .isLessThan(theirs);
      } else {
        long mine = person.passes.get(back.times() - 1);
        long their = them.passes.get(other.times() - 1);
        if (mine != their) {
          softly
              .assertThat(next < theirs)
              .as("%s and %s at the front, in the order they were admitted", person, them)
              .isEqualTo(mine < their);
        }
      }
    }
  }

  /** Every waiting person polls, on alternate gateways, and acts on being admitted. */
  private void pollUntil(List<Person> people, BooleanSupplier done, boolean hold) {
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              for (Person person : people) {
                if (person.state == State.WAITING) {
                  person.step(people, hold);
                }
              }
              return done.getAsBoolean();
            });
  }

  private static double reentered(GatewayApp gateway) {
    var counter =
        gateway
            .bean(MeterRegistry.class)
            .find("anteroom.gateway.reentered")
            .tags("room", "shop")
            .counter();
    return counter == null ? 0 : counter.count();
  }

  enum State {
    WAITING,
    /** Admitted; its first request waits for the test. */
    HOLDING,
    /** Admitted, and its request answered other than by going back. */
    DONE
  }

  /** Someone in the line, when they went back, as Redis held it then. */
  record Waiting(String id, boolean front, int times) {}

  /** One time a person went back: after how many admissions, and the line right after. */
  record WentBack(int times, List<Waiting> line) {}

  /** One visitor with one browser, talking to both gateways. */
  final class Person {

    final int number;
    final boolean failing;
    final Visitor[] gateways;
    final String id;
    final List<Long> admissions = new ArrayList<>();
    final List<Long> passes = new ArrayList<>();
    final List<WentBack> wentBack = new ArrayList<>();
    State state = State.WAITING;
    int lastAnswer;
    String lastPoll;
    int polls;

    Person(int number, boolean failing) {
      this.number = number;
      this.failing = failing;
      Visitor visitor = new Visitor(east.port());
      this.gateways = new Visitor[] {visitor, visitor.at(west.port())};
      HttpResponse<String> joined = gateways[number % 2].json("/products/1");
      assertThat(Visitor.text(joined.body(), "state")).as(toString()).isEqualTo("waiting");
      Verified<Ticket> ticket = tokens.readTicket(visitor.cookie("anteroom_ticket_shop"), "shop");
      this.id = ((Verified.Valid<Ticket>) ticket).value().visitor();
    }

    String poll(int gateway) {
      lastPoll = gateways[gateway].json("/_anteroom/status?room=shop").body();
      return lastPoll;
    }

    void step(List<Person> people, boolean hold) {
      int gateway = polls++ % 2;
      if (!"admitted".equals(Visitor.text(poll(gateway), "state"))) {
        return;
      }
      Double score = commands.zscore(keys.running(QUEUE), id);
      assertThat(score).as("%s admitted in Redis", this).isNotNull();
      admissions.add(score.longValue());
      Verified<Pass> pass = tokens.readPass(gateways[0].cookie("anteroom_pass_shop"), "shop");
      passes.add(
          ((Verified.Valid<Pass>) pass).value().entitlement(QUEUE).admitted().toEpochMilli());
      state = State.HOLDING;
      if (!(hold && failing)) {
        ask(people);
      }
    }

    /** The first request after admission, on the gateway it did not poll last. */
    void ask(List<Person> people) {
      HttpResponse<String> answer = request(polls % 2);
      lastAnswer = answer.statusCode();
      if (lastAnswer == 303) {
        List<Waiting> line = new ArrayList<>();
        for (ScoredValue<String> entry : commands.zrangeWithScores(keys.waiting(QUEUE), 0, -1)) {
          int times =
              people.stream()
                  .filter(p -> p.id.equals(entry.getValue()))
                  .mapToInt(p -> p.admissions.size())
                  .findFirst()
                  .orElse(0);
          line.add(new Waiting(entry.getValue(), entry.getScore() < -2e15, times));
        }
        wentBack.add(new WentBack(admissions.size(), line));
        state = State.WAITING;
      } else {
        state = State.DONE;
      }
    }

    HttpResponse<String> request(int gateway) {
      return gateways[gateway].page(failing ? FAILING_PATH : "/products/1");
    }

    @Override
    public String toString() {
      return "person " + number;
    }
  }
}
