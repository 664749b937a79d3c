package io.anteroom.queue.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The settings of {@link Fairness}: parsing, checks, and the phases of a scheduled event. */
class FairnessSettingsTests {

  static final String SOURCE = "anteroom.rooms.shop";
  static final Instant START = Instant.parse("2026-12-24T18:00:00Z");

  static RoomPolicy parse(Map<String, String> values) {
    return PolicyParser.apply(SOURCE, RoomPolicy.DEFAULTS, values);
  }

  static InvalidPolicyException problems(Map<String, String> values) {
    return catchThrowableOfType(InvalidPolicyException.class, () -> parse(values));
  }

  @Test
  void defaultsAreFirstComeWithoutEventOrCaps() {
    Fairness fairness = RoomPolicy.DEFAULTS.fairness();

    assertThat(fairness.queueing()).isEqualTo(Queueing.FIFO);
    assertThat(fairness.eventStart()).isNull();
    assertThat(fairness.randomPlace(START)).isFalse();
    assertThat(fairness.capsQueuesPerIdentity()).isFalse();
    assertThat(fairness.limitsPlacesPerIp()).isFalse();
  }

  @Test
  void everyFairnessSettingIsRead() {
    Fairness fairness =
        parse(
                Map.of(
                    "queueing", "random",
                    "event-start", "2026-12-24T19:00:00+01:00",
                    "pre-queue-opens", "30m",
                    "max-queues-per-identity", "2",
                    "new-places-per-ip-per-minute", "20"))
            .fairness();

    assertThat(fairness.queueing()).isEqualTo(Queueing.RANDOM);
    assertThat(fairness.eventStart()).isEqualTo(START);
    assertThat(fairness.preQueueOpens()).isEqualTo(START.minus(Duration.ofMinutes(30)));
    assertThat(fairness.maxQueuesPerIdentity()).isEqualTo(2);
    assertThat(fairness.newPlacesPerIpPerMinute()).isEqualTo(20);
  }

  @Test
  void preQueueOpensMayBeAnInstant() {
    Fairness fairness =
        parse(Map.of("event-start", START.toString(), "pre-queue-opens", "2026-12-24T17:00:00Z"))
            .fairness();

    assertThat(fairness.preQueueOpens()).isEqualTo(Instant.parse("2026-12-24T17:00:00Z"));
  }

  @Test
  void badValuesAreNamedWithWhatIsExpected() {
    InvalidPolicyException error =
        problems(
            Map.of(
                "queueing", "lottery",
                "event-start", "tomorrow",
                "max-queues-per-identity", "-1",
                "new-places-per-ip-per-minute", "many"));

    assertThat(error.problems())
        .anySatisfy(
            p ->
                assertThat(p)
                    .isEqualTo(SOURCE + ".queueing: must be one of fifo, random; was 'lottery'"))
        .anySatisfy(
            p ->
                assertThat(p)
                    .startsWith(SOURCE + ".event-start: must be an ISO-8601 instant")
                    .endsWith("was 'tomorrow'"))
        .anySatisfy(
            p -> assertThat(p).startsWith(SOURCE + ".max-queues-per-identity: must be between 0"))
        .anySatisfy(
            p ->
                assertThat(p)
                    .startsWith(SOURCE + ".new-places-per-ip-per-minute: must be a whole number"));
  }

  @Test
  void aPreQueueNeedsAnEventThatStartsAfterIt() {
    assertThat(problems(Map.of("pre-queue-opens", "30m")).problems())
        .containsExactly(SOURCE + ".pre-queue-opens: needs event-start to be set");
    assertThat(
            problems(
                    Map.of(
                        "event-start", START.toString(), "pre-queue-opens", "2026-12-24T18:00:01Z"))
                .problems())
        .containsExactly(
            SOURCE + ".pre-queue-opens: must not be after event-start (2026-12-24T18:00:00Z)");
    assertThat(problems(Map.of("event-start", START.toString(), "pre-queue-opens", "soon")))
        .hasMessageContaining("pre-queue-opens: must be a whole number with a unit");
  }

  @Test
  void noneUnsetsAnEventOverTheBase() {
    RoomPolicy event = parse(Map.of("event-start", START.toString(), "pre-queue-opens", "1h"));

    RoomPolicy off =
        PolicyParser.apply(
            "overrides", event, Map.of("event-start", "none", "pre-queue-opens", "none"));

    assertThat(off.fairness().eventStart()).isNull();
    assertThat(off.fairness().preQueueOpens()).isNull();
  }

  @Test
  void phasesOfAnEventWithAPreQueue() {
    Fairness fairness =
        parse(Map.of("event-start", START.toString(), "pre-queue-opens", "1h")).fairness();
    Instant opens = START.minus(Duration.ofHours(1));

    assertThat(fairness.preQueue(opens.minusMillis(1))).isFalse();
    assertThat(fairness.preQueue(opens)).isTrue();
    assertThat(fairness.preQueue(START.minusMillis(1))).isTrue();
    assertThat(fairness.preQueue(START)).isFalse();
    assertThat(fairness.randomPlace(opens)).isTrue();
    assertThat(fairness.randomPlace(START)).isFalse();
    assertThat(fairness.secondsUntilStart(START.minusMillis(1500))).isEqualTo(2);
    assertThat(fairness.secondsUntilStart(START)).isZero();
  }

  @Test
  void withoutAnOpeningTimeThePreQueueIsOpenAnyTimeBeforeTheStart() {
    Fairness fairness = parse(Map.of("event-start", START.toString())).fairness();

    assertThat(fairness.preQueue(START.minus(Duration.ofDays(30)))).isTrue();
    assertThat(fairness.preQueue(START)).isFalse();
  }

  @Test
  void passesFromBeforeThePreQueueOpenedStopOpeningTheRoomOnceItHas() {
    Fairness fairness =
        parse(Map.of("event-start", START.toString(), "pre-queue-opens", "1h")).fairness();
    Instant opens = START.minus(Duration.ofHours(1));
    Instant before = opens.minusSeconds(60);

    assertThat(fairness.honours(before, opens.minusSeconds(1))).isTrue();
    assertThat(fairness.honours(before, opens)).isFalse();
    assertThat(fairness.honours(before, START.plusSeconds(60))).isFalse();
    assertThat(fairness.honours(START.plusSeconds(1), START.plusSeconds(60))).isTrue();
    assertThat(RoomPolicy.DEFAULTS.fairness().honours(before, START)).isTrue();
  }
}
