package io.anteroom.queue.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class BudgetSettingsTests {

  static final RoomPolicy BASE = RoomPolicy.DEFAULTS;

  @Test
  void roomWideLimitsParseAndNoneRemovesThem() {
    RoomPolicy limited =
        PolicyParser.apply(
            "r", BASE, Map.of("total-active-users", "2000", "new-users-per-minute", "500"));

    assertThat(limited.budget()).isEqualTo(new Budget(2000, 500, 1));
    assertThat(limited.budget().limited()).isTrue();
    assertThat(limited.budget().newUsersPerSecond()).isEqualTo(500 / 60.0);
    assertThat(limited.budget().burstTokens()).isEqualTo(500 / 60.0);
    RoomPolicy cleared =
        PolicyParser.apply(
            "r", limited, Map.of("total-active-users", "none", "new-users-per-minute", "none"));
    assertThat(cleared.budget()).isEqualTo(Budget.DEFAULTS);
    assertThat(cleared.budget().limited()).isFalse();
  }

  @Test
  void zeroOrNegativeLimitsAndWeightsAreNamedEachAtOnce() {
    assertThatThrownBy(
            () ->
                PolicyParser.apply(
                    "r",
                    BASE,
                    Map.of(
                        "total-active-users", "0",
                        "new-users-per-minute", "-5",
                        "weight", "0")))
        .isInstanceOfSatisfying(
            InvalidPolicyException.class,
            e ->
                assertThat(e.problems())
                    .anySatisfy(p -> assertThat(p).startsWith("r.total-active-users: must be"))
                    .anySatisfy(p -> assertThat(p).startsWith("r.new-users-per-minute: must be"))
                    .anySatisfy(p -> assertThat(p).startsWith("r.weight: must be"))
                    .hasSize(3));
  }

  @Test
  void aCapWrittenWithTheRoomsLimitMustFitInsideIt() {
    assertThatThrownBy(
            () ->
                PolicyParser.apply(
                    "r",
                    BASE,
                    Map.of(
                        "total-active-users", "50",
                        "max-active", "100",
                        "new-users-per-minute", "60",
                        "admit-per-second", "2")))
        .isInstanceOfSatisfying(
            InvalidPolicyException.class,
            e ->
                assertThat(e.problems())
                    .containsExactlyInAnyOrder(
                        "r.max-active: must be at most total-active-users (50)",
                        "r.admit-per-second: must be at most new-users-per-minute / 60 (1.0)"));
  }

  @Test
  void anInheritedCapIsBoundedByTheRoomNotRefused() {
    // The built-in max-active (1000) and admit-per-second (10) exceed these, unwritten.
    RoomPolicy room =
        PolicyParser.apply(
            "r", BASE, Map.of("total-active-users", "50", "new-users-per-minute", "60"));

    assertThat(room.maxActive()).isEqualTo(1000);
    assertThat(room.budget().totalActiveUsers()).isEqualTo(50);
  }

  @Test
  void aQueueTakesAWeightAndACapInsideTheRoomsButNoRoomWideLimit() {
    RoomPolicy room = PolicyParser.apply("r", BASE, Map.of("total-active-users", "50"));

    RoomPolicy queue =
        PolicyParser.applyToQueue("q", room, Map.of("weight", "2.5", "max-active", "40"));
    assertThat(queue.budget()).isEqualTo(new Budget(50, 0, 2.5));
    assertThat(queue.maxActive()).isEqualTo(40);
    assertThatThrownBy(
            () ->
                PolicyParser.applyToQueue(
                    "q", room, Map.of("new-users-per-minute", "10", "max-active", "60")))
        .isInstanceOfSatisfying(
            InvalidPolicyException.class,
            e ->
                assertThat(e.problems())
                    .containsExactlyInAnyOrder(
                        "q.new-users-per-minute: is room-wide; set it on the room",
                        "q.max-active: must be at most total-active-users (50)"));
  }

  @Test
  void sessionScopeIsItemByDefaultRoomWhenSetAndAnythingElseIsNamed() {
    assertThat(BASE.budget().sessionScope()).isEqualTo(SessionScope.ITEM);
    assertThat(
            PolicyParser.apply("r", BASE, Map.of("session-scope", "room")).budget().sessionScope())
        .isEqualTo(SessionScope.ROOM);
    assertThatThrownBy(() -> PolicyParser.apply("r", BASE, Map.of("session-scope", "page")))
        .isInstanceOfSatisfying(
            InvalidPolicyException.class,
            e ->
                assertThat(e.problems())
                    .containsExactly("r.session-scope: must be one of item, room; was 'page'"));
    assertThatThrownBy(() -> PolicyParser.applyToQueue("q", BASE, Map.of("session-scope", "room")))
        .isInstanceOfSatisfying(
            InvalidPolicyException.class,
            e ->
                assertThat(e.problems())
                    .containsExactly("q.session-scope: is room-wide; set it on the room"));
  }
}
