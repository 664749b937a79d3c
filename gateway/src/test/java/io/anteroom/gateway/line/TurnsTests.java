package io.anteroom.gateway.line;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.gateway.RedisGuard;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.activation.AutoActivator;
import io.anteroom.gateway.activation.QueueGate;
import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.gateway.pass.DirectEntry;
import io.anteroom.gateway.pass.PassRegistrar;
import io.anteroom.gateway.pass.Passes;
import io.anteroom.gateway.pass.SessionChecks;
import io.anteroom.gateway.pass.Tickets;
import io.anteroom.gateway.proof.Proofs;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.shadow.ShadowJoins;
import io.anteroom.gateway.token.Challenge;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.TokenKeys;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.ActiveSet;
import io.anteroom.queue.PlaceLimits;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.RoomStore;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.queue.shadow.ShadowLines;
import io.anteroom.queue.time.MutableClock;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The decisions a turn takes from memory, without Spring and without Redis: every store the turn
 * could ask is one that fails the test when asked, so each case also shows that the gateway
 * answered without a Redis call. (What the line does in Redis is for the integration tests.)
 */
class TurnsTests {

  final MutableClock clock = MutableClock.startingAt2026();
  final QueueId queue = QueueId.of("shop", "7");
  final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  final TokenCodec tokens =
      new TokenCodec(
          new TokenKeys("k1", Map.of("k1", new byte[32])),
          "anteroom",
          clock,
          Duration.ofSeconds(5),
          Duration.ofHours(24));
  final AnteroomCookies cookies = new AnteroomCookies(false);
  final Passes passes = new Passes(tokens, cookies, clock);
  final Tickets tickets = new Tickets(tokens, cookies, clock);
  final RedisGuard redis = new RedisGuard(CircuitBreaker.ofDefaults("redis"));
  final QueueStore store = noRedis(QueueStore.class);
  ActiveSet on = new ActiveSet(Map.of(queue, Activation.MANUAL), Set.of());

  /** The queues that are on, as the mirror last read them; asked nothing else. */
  final ActiveQueues active =
      (ActiveQueues)
          Proxy.newProxyInstance(
              ActiveQueues.class.getClassLoader(),
              new Class<?>[] {ActiveQueues.class},
              (proxy, method, args) -> {
                if (method.getName().equals("read")) {
                  return Mono.just(on);
                }
                throw new AssertionError("no Redis call expected: " + method.getName());
              });

  final ActiveQueueMirror mirror =
      new ActiveQueueMirror(active, Mono.never(), "changed", Duration.ofSeconds(1), clock, meters);

  static <T> T noRedis(Class<T> type) {
    return type.cast(
        Proxy.newProxyInstance(
            type.getClassLoader(),
            new Class<?>[] {type},
            (proxy, method, args) -> {
              throw new AssertionError("no Redis call expected: " + method.getName());
            }));
  }

  Turns turns(RoomPolicy policy) {
    RoomPolicyMirror policies =
        new RoomPolicyMirror(
            new RoomPolicies(Map.of("shop", policy), noRedis(SettingsStore.class), clock), clock);
    QueueGate gate =
        new QueueGate(
            mirror,
            new AutoActivator(active, mirror, null, 10, Set.of("shop"), meters, clock),
            clock);
    DirectEntry direct =
        new DirectEntry(
            noRedis(RoomStore.class),
            redis,
            new PassRegistrar(store, policies, meters, clock),
            mirror,
            policies);
    TokenRejections rejections = (room, reason) -> {};
    RoomShares shares = new RoomShares(mirror, policies);
    Line line = new Line(store, redis, new LineEvents(Set.of("shop"), meters), shares, clock);
    ThrottledWarnings warnings = ThrottledWarnings.of(LoggerFactory.getLogger(getClass()), clock);
    Meeting meeting =
        new Meeting(
            line,
            new PlaceGuard(noRedis(PlaceLimits.class), redis, warnings),
            new Proofs(tokens, cookies),
            gate,
            passes,
            tickets,
            cookies,
            shares,
            rejections,
            warnings);
    return new Turns(
        gate,
        new Holders(
            gate,
            direct,
            new SessionChecks(store, redis, clock, meters),
            passes,
            rejections,
            clock),
        meeting,
        direct,
        line,
        passes,
        tickets,
        cookies,
        shares,
        new ShadowJoins(noRedis(ShadowLines.class), mirror, redis, Set.of("shop"), meters, clock));
  }

  static RoomPolicy policy(String... values) {
    Map<String, String> map = new java.util.LinkedHashMap<>();
    for (int i = 0; i < values.length; i += 2) {
      map.put(values[i], values[i + 1]);
    }
    return PolicyParser.apply("test", RoomPolicy.DEFAULTS, map);
  }

  Visit newcomer(RoomPolicy policy, boolean reads) {
    return new Visit(
        queue,
        policy,
        reads,
        null,
        null,
        null,
        null,
        io.anteroom.gateway.proof.Proofs.Answer.Missing::new,
        () -> "192.0.2.1",
        null);
  }

  @Test
  void aWriteToAQueueThatHoldsVisitorsCannotWait() {
    mirror.refresh().block();

    Turn turn = turns(policy()).take(newcomer(policy(), false)).block();

    assertThat(turn.verdict()).isInstanceOf(Verdict.CannotWait.class);
    assertThat(turn.cookies()).isEmpty();
  }

  @Test
  void aNewcomerOfARoomThatAsksForProofOfWorkIsChallengedFirst() {
    mirror.refresh().block();
    RoomPolicy puzzles = policy("proof-of-work", "8");

    Turn turn = turns(puzzles).take(newcomer(puzzles, true)).block();

    assertThat(turn.verdict()).isInstanceOf(Verdict.Challenge.class);
    Verdict.Challenge challenge = (Verdict.Challenge) turn.verdict();
    assertThat(challenge.difficulty()).isEqualTo(8);
    assertThat(tokens.readChallenge(challenge.challenge(), "shop"))
        .isInstanceOfSatisfying(
            Verified.Valid.class,
            valid -> assertThat(((Challenge) valid.value()).queue()).isEqualTo(queue));
  }

  @Test
  void aPassHolderNotYetDueForAConfirmationGoesInWithThePassItCarries() {
    Passes.Issued issued =
        passes.admitted("vQx3n0kq7S2mB8yZfL1aPg", queue, null, null, clock.instant(), policy());
    Pass pass = ((Verified.Valid<Pass>) tokens.readPass(issued.token(), "shop")).value();
    Visit holder =
        new Visit(
            queue, policy(), true, pass, issued.token(), null, pass.visitor(), null, null, null);

    Turn turn = turns(policy()).take(holder).block();

    assertThat(turn.verdict()).isEqualTo(new Verdict.Hold(pass, issued.token()));
  }

  @Test
  void beforeTheQueuesThatAreOnWereEverReadTheLineIsUnavailable() {
    on = new ActiveSet(Map.of(), Set.of());

    Turn turn = turns(policy()).take(newcomer(policy(), true)).block();

    assertThat(mirror.isKnown()).isFalse();
    assertThat(turn.verdict()).isInstanceOf(Verdict.Unavailable.class);
  }

  @Test
  void aTicketHoldersPollOfAClosedQueueThatClearsItsLineIsClosedWithoutAPlace() {
    mirror.refresh().block();
    RoomPolicy closed = policy("mode", "closed", "closed-line", "clear");
    Visit polling =
        new Visit(
            queue,
            closed,
            true,
            null,
            null,
            tokens.readTicket(tickets.joined("vQx3n0kq7S2mB8yZfL1aPg", queue).getValue(), "shop")
                    instanceof Verified.Valid<?> valid
                ? (io.anteroom.gateway.token.Ticket) valid.value()
                : null,
            "vQx3n0kq7S2mB8yZfL1aPg",
            null,
            null,
            null);

    Turn turn = turns(closed).poll(polling).block();

    assertThat(polling.ticketHere()).isTrue();
    assertThat(turn.verdict()).isEqualTo(new Verdict.Closed(null));
  }
}
