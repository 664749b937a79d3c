package io.anteroom.gateway.scale;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AdmissionReplayTests {

  static final String Q = "wr:{shop}:1:";

  static AdmissionReplay replay(String... lines) {
    return AdmissionReplay.of(Q, List.of(lines).stream().map(RedisMonitor::parse).toList());
  }

  static String lua(String words) {
    return "+1796279600.539871 [0 lua] " + words;
  }

  @Test
  void admissionsInLineOrderAtTheBucketsRefillTime() {
    AdmissionReplay replay =
        replay(
            lua("\"ZADD\" \"" + Q + "waiting\" \"1\" \"a\""),
            lua("\"ZADD\" \"" + Q + "waiting\" \"2\" \"b\""),
            "+1796279600.6 [0 127.0.0.1:4000] \"echo\" \"go\"",
            // a late call: its now (900) is older than the refill time already stored (1000)
            lua("\"HSET\" \"" + Q + "state\" \"tokens\" \"1.000000\" \"refill\" \"1000\""),
            lua("\"ZADD\" \"" + Q + "running\" \"900\" \"a\" \"900\" \"b\""),
            lua("\"ZADD\" \"" + Q + "running\" \"XX\" \"GT\" \"1200\" \"a\""),
            lua("\"ZREM\" \"" + Q + "running\" \"a\""));

    assertThat(replay.disorder()).isEmpty();
    assertThat(replay.admissions())
        .extracting(AdmissionReplay.Admission::bucketMs)
        .containsExactly(1000L, 1000L);
    assertThat(replay.between("go", null)).hasSize(2);
    assertThat(replay.waitingAt("go")).isEqualTo(2);
    assertThat(replay.maxRunning()).isEqualTo(2);
    assertThat(replay.running()).isEqualTo(1);
    assertThat(replay.waiting()).isZero();
  }

  @Test
  void admittingPastAnEarlierArrivalIsDisorder() {
    AdmissionReplay replay =
        replay(
            lua("\"ZADD\" \"" + Q + "waiting\" \"1\" \"a\""),
            lua("\"ZADD\" \"" + Q + "waiting\" \"2\" \"b\""),
            lua("\"ZADD\" \"" + Q + "running\" \"1000\" \"b\""));

    assertThat(replay.disorder()).singleElement().asString().contains("b (place 2)");
  }

  @Test
  void lettingSomeoneStraightInWhilePeopleWaitIsDisorder() {
    AdmissionReplay replay =
        replay(
            lua("\"ZADD\" \"" + Q + "waiting\" \"1\" \"a\""),
            lua("\"ZADD\" \"" + Q + "running\" \"1000\" \"newcomer\""));

    assertThat(replay.disorder()).singleElement().asString().contains("straight in");
  }

  @Test
  void otherQueuesAndClientCommandsAreNotReplayed() {
    AdmissionReplay replay =
        replay(
            lua("\"ZADD\" \"wr:{shop}:2:running\" \"1000\" \"x\""),
            "+1796279600.6 [0 127.0.0.1:4000] \"ZADD\" \"" + Q + "running\" \"1000\" \"y\"");

    assertThat(replay.admissions()).isEmpty();
  }

  @Test
  void monitorLinesKeepEscapedCharacters() {
    RedisMonitor.Command command =
        RedisMonitor.parse("+1.5 [0 lua] \"SET\" \"k\" \"a\\\"b\\\\c\\x41\"");

    assertThat(command.source()).isEqualTo("lua");
    assertThat(command.words()).containsExactly("SET", "k", "a\"b\\cA");
  }
}
