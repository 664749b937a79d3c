package io.anteroom.gateway.proof;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A room with {@code proof-of-work} makes newcomers solve a puzzle before they take a place: the
 * challenge costs no Redis call, only a solved one enters the line, and one solution shared by many
 * clients holds one place.
 */
@GatewayIntegrationTest
class ProofOfWorkIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  static final int DIFFICULTY = 10;
  static final String PATH = "/products/21";
  static final QueueId QUEUE = QueueId.of("shop", "21");

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policies;
  @Autowired SettingsStore settings;
  @Autowired QueueStore store;
  @Autowired TokenCodec tokens;
  @Autowired MeterRegistry meters;

  /** The queue is on with one person waiting; from now on newcomers must solve the puzzle. */
  @BeforeEach
  void queueOnWithOneWaitingThenPuzzleOn() {
    active.activate(QUEUE, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(5)).until(() -> mirror.isActive(QUEUE));
    policies.refresh().block();
    Visitor.lineUpSomeone(port, PATH);
    difficulty(DIFFICULTY);
  }

  @Test
  void aNewcomerGetsAChallengeAndNoPlace() {
    double before = count("anteroom.gateway.requests", "decision", "challenged");

    HttpResponse<String> response = new Visitor(port).json(PATH);

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(Visitor.text(response.body(), "state")).isEqualTo("challenge");
    assertThat(Visitor.field(response.body(), "difficulty")).isEqualTo(DIFFICULTY);
    assertThat(tokens.readChallenge(Visitor.text(response.body(), "challenge"), "shop"))
        .isInstanceOf(Verified.Valid.class);
    assertThat(waiting()).isEqualTo(1);
    assertThat(count("anteroom.gateway.requests", "decision", "challenged")).isEqualTo(before + 1);
  }

  @Test
  void aSolvedChallengeTakesAPlaceForTheVisitorItWasIssuedTo() {
    Visitor visitor = new Visitor(port);
    String challenge = challengeFor(visitor);

    HttpResponse<String> response = withAnswer(visitor, answer(challenge));

    assertThat(Visitor.text(response.body(), "state")).isEqualTo("waiting");
    assertThat(Visitor.field(response.body(), "position")).isEqualTo(2);
    assertThat(waiting()).isEqualTo(2);
    String ticket = visitor.cookie("anteroom_ticket_shop");
    assertThat(((Verified.Valid<?>) tokens.readTicket(ticket, "shop")).value())
        .hasFieldOrPropertyWithValue("visitor", issuedTo(challenge));
    assertThat(visitor.json(PATH).body())
        .as("the ticket keeps the place")
        .contains("\"position\":2");
  }

  @Test
  void theWaitingPageSolvesThroughItsCookieWhichIsRemovedOnceRead() {
    Visitor visitor = new Visitor(port);
    String page = visitor.page(PATH).body();
    assertThat(page).contains("anteroom_proof_shop");
    String challenge = page.replaceAll("(?s).*var challenge = \"([^\"]+)\".*", "$1");

    visitor.setCookie("anteroom_proof_shop", answer(challenge));
    HttpResponse<String> response = visitor.page(PATH);

    assertThat(response.body()).contains("You are in line");
    assertThat(waiting()).isEqualTo(2);
    assertThat(response.headers().allValues("Set-Cookie"))
        .anySatisfy(c -> assertThat(c).startsWith("anteroom_proof_shop=;").contains("Max-Age=0"));
  }

  @Test
  void oneSolutionSharedByManyClientsHoldsOnePlace() {
    String answer = answer(challengeFor(new Visitor(port)));

    for (int i = 0; i < 20; i++) {
      assertThat(Visitor.text(withAnswer(new Visitor(port), answer).body(), "state"))
          .isEqualTo("waiting");
    }

    assertThat(waiting()).isEqualTo(2);
  }

  @Test
  void wrongAnswersAreCountedAndChallengedAgainNeverAServerError() {
    String challenge = challengeFor(new Visitor(port));
    String wrongCounter = wrongCounter(challenge);
    String otherQueue = tokens.issueChallenge(issuedTo(challenge), QueueId.of("shop", "22"), 10);
    String tooEasy = tokens.issueChallenge(issuedTo(challenge), QUEUE, 1);
    Map<String, String> answers =
        Map.of(
            "proof",
            challenge + "." + wrongCounter,
            "wrong_queue",
            answer(otherQueue),
            "malformed",
            "no-dot-at-all",
            "signature",
            answer(tampered(challenge)));
    for (Map.Entry<String, String> wrong : answers.entrySet()) {
      double before = count("anteroom.gateway.tokens.rejected", "reason", wrong.getKey());
      HttpResponse<String> response = withAnswer(new Visitor(port), wrong.getValue());
      assertThat(response.statusCode()).as(wrong.getKey()).isEqualTo(200);
      assertThat(Visitor.text(response.body(), "state")).as(wrong.getKey()).isEqualTo("challenge");
      assertThat(count("anteroom.gateway.tokens.rejected", "reason", wrong.getKey()))
          .as(wrong.getKey())
          .isEqualTo(before + 1);
    }
    for (String odd :
        new String[] {
          answer(tooEasy), challenge + ".-1", challenge + ".1e9", challenge + ".", "x".repeat(3000)
        }) {
      HttpResponse<String> response = withAnswer(new Visitor(port), odd);
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(Visitor.text(response.body(), "state")).isEqualTo("challenge");
    }
    assertThat(waiting()).isEqualTo(1);
  }

  @Test
  void anAnswerSolvedForSomeoneElseDoesNotPlaceAKnownVisitor() {
    String forSomeoneElse = answer(challengeFor(new Visitor(port)));
    Visitor holder = new Visitor(port);
    String pass =
        tokens.issuePass("vQx3n0kq7S2mB8yZfL1aPg", "shop", List.of("99"), Duration.ofMinutes(5));
    holder.setCookie("anteroom_pass_shop", pass);

    HttpResponse<String> response = withAnswer(holder, forSomeoneElse);

    assertThat(Visitor.text(response.body(), "state")).isEqualTo("challenge");
    assertThat(issuedTo(Visitor.text(response.body(), "challenge")))
        .isEqualTo("vQx3n0kq7S2mB8yZfL1aPg");
    assertThat(waiting()).isEqualTo(1);
  }

  @Test
  void raisingTheDifficultyRetiresEasierChallenges() {
    String easier = challengeFor(new Visitor(port));
    difficulty(DIFFICULTY + 2);

    HttpResponse<String> response = withAnswer(new Visitor(port), answer(easier));

    assertThat(Visitor.text(response.body(), "state")).isEqualTo("challenge");
    assertThat(Visitor.field(response.body(), "difficulty")).isEqualTo(DIFFICULTY + 2);
    assertThat(waiting()).isEqualTo(1);
  }

  @Test
  void withoutAPuzzleNewcomersJoinAtOnce() {
    difficulty(0);

    assertThat(Visitor.text(new Visitor(port).json(PATH).body(), "state")).isEqualTo("waiting");
    assertThat(waiting()).isEqualTo(2);
  }

  void difficulty(int bits) {
    settings.put("shop", null, Map.of("proof-of-work", Integer.toString(bits))).block();
    policies.refresh().block();
    assertThat(policies.policy(QUEUE).proofOfWork()).isEqualTo(bits);
  }

  String challengeFor(Visitor visitor) {
    String body = visitor.json(PATH).body();
    assertThat(Visitor.text(body, "state")).isEqualTo("challenge");
    return Visitor.text(body, "challenge");
  }

  String issuedTo(String challenge) {
    return ((Verified.Valid<io.anteroom.gateway.token.Challenge>)
            tokens.readChallenge(challenge, "shop"))
        .value()
        .visitor();
  }

  /** An answer that also holds after the difficulty is raised by two bits. */
  static String answer(String challenge) {
    return challenge + "." + ProofOfWork.solve(challenge, DIFFICULTY + 2);
  }

  /** The challenge with one character of its signature changed. */
  static String tampered(String challenge) {
    int at = challenge.length() - 5;
    char other = challenge.charAt(at) == 'A' ? 'B' : 'A';
    return challenge.substring(0, at) + other + challenge.substring(at + 1);
  }

  static String wrongCounter(String challenge) {
    for (long counter = 0; ; counter++) {
      if (!ProofOfWork.solves(challenge, Long.toString(counter), DIFFICULTY)) {
        return Long.toString(counter);
      }
    }
  }

  HttpResponse<String> withAnswer(Visitor visitor, String answer) {
    return visitor.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + PATH))
            .header("Accept", "application/json")
            .header(Proofs.HEADER, answer));
  }

  long waiting() {
    return store.counts(QUEUE).block().waiting();
  }

  double count(String name, String tag, String value) {
    var counter = meters.find(name).tag("room", "shop").tag(tag, value).counter();
    return counter == null ? 0 : counter.count();
  }
}
