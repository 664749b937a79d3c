package io.anteroom.bench.crowd;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.ScoredValue;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OrderCheckTests {

  @Test
  void ofWhenEachJoinFollowsTheLastAnswerThenOrderIsKept() {
    JoinLog log = new JoinLog(3, 0);
    join(log, 0, 10, 20, "a", 1);
    join(log, 1, 30, 40, "b", 2);
    join(log, 2, 50, 60, "c", 3);

    OrderCheck check = OrderCheck.of(log, line("a", "b", "c"));

    assertThat(check.passed()).isTrue();
    assertThat(check.constrained()).isEqualTo(2);
    assertThat(check.positionExact()).isEqualTo(3);
  }

  @Test
  void ofWhenALaterJoinTookAnEarlierPlaceThenItIsOutOfOrder() {
    JoinLog log = new JoinLog(2, 0);
    join(log, 0, 10, 20, "a", 2);
    join(log, 1, 30, 40, "b", 1);

    OrderCheck check = OrderCheck.of(log, line("b", "a"));

    assertThat(check.outOfOrder()).isEqualTo(1);
    assertThat(check.passed()).isFalse();
  }

  @Test
  void ofWhenJoinsOverlapThenEitherOrderIsAllowed() {
    JoinLog log = new JoinLog(2, 0);
    join(log, 0, 10, 40, "a", 2);
    join(log, 1, 20, 30, "b", 1);

    OrderCheck check = OrderCheck.of(log, line("b", "a"));

    assertThat(check.constrained()).isZero();
    assertThat(check.passed()).isTrue();
  }

  @Test
  void ofWhenAVisitorIsTwiceOrMissingThenItFails() {
    JoinLog log = new JoinLog(3, 0);
    join(log, 0, 10, 20, "a", 1);
    join(log, 1, 30, 40, "a", 1);
    join(log, 2, 50, 60, "z", 2);

    OrderCheck check = OrderCheck.of(log, line("a"));

    assertThat(check.distinctVisitors()).isEqualTo(2);
    assertThat(check.missing()).isEqualTo(1);
    assertThat(check.passed()).isFalse();
  }

  @Test
  void ofWhenAPositionIsBehindTheFinalRankThenItCountsAsAbove() {
    JoinLog log = new JoinLog(1, 0);
    join(log, 0, 10, 20, "a", 5);

    OrderCheck check = OrderCheck.of(log, line("a"));

    assertThat(check.positionAbove()).isEqualTo(1);
    assertThat(check.passed()).isFalse();
  }

  private static void join(
      JoinLog log, int i, long sent, long answered, String visitor, long position) {
    log.sent[i] = sent;
    log.record(i, answered, new Answer(Answer.Kind.WAITING, 200, position, "t", visitor));
  }

  /** The line front first, with scores 1, 2, 3, … as the enqueue script gives them. */
  private static List<ScoredValue<String>> line(String... visitors) {
    List<ScoredValue<String>> line = new ArrayList<>();
    for (int i = 0; i < visitors.length; i++) {
      line.add(ScoredValue.just(i + 1, visitors[i]));
    }
    return line;
  }
}
