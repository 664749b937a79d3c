package io.anteroom.gateway.scale;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RoomReplayTests {

  static final String SESSIONS = "wr:{shop}:sessions";
  static final String BUDGET = "wr:{shop}:budget";

  static RoomReplay replay(String... lines) {
    return RoomReplay.of(
        SESSIONS, BUDGET, List.of(lines).stream().map(RedisMonitor::parse).toList());
  }

  static String lua(String words) {
    return "+1796279600.539871 [0 lua] " + words;
  }

  @Test
  void admissionsAreNewSessionsWrittenWithoutAFlagAtTheRoomBucketsRefillTime() {
    RoomReplay replay =
        replay(
            lua("\"HSET\" \"" + BUDGET + "\" \"tokens\" \"1.000000\" \"refill\" \"1000\""),
            "+1796279600.6 [0 127.0.0.1:4000] \"echo\" \"go\"",
            // a late call: its now (900) is older than the refill time already stored (1000)
            lua("\"ZADD\" \"" + SESSIONS + "\" \"900\" \"1|a\" \"900\" \"2|b\""),
            // a renewal and a registration are no admissions
            lua("\"ZADD\" \"" + SESSIONS + "\" \"GT\" \"1100\" \"1|a\" \"1100\" \"3|c\""),
            lua("\"ZADD\" \"" + SESSIONS + "\" \"1200\" \"2|d\""),
            "+1796279600.7 [0 127.0.0.1:4000] \"echo\" \"end\"");

    assertThat(replay.admissions())
        .extracting(RoomReplay.Admission::bucketMs, RoomReplay.Admission::item)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1000L, "1"),
            org.assertj.core.groups.Tuple.tuple(1000L, "2"),
            org.assertj.core.groups.Tuple.tuple(1200L, "2"));
    assertThat(replay.between("go", "end")).hasSize(3);
    assertThat(replay.maxSessions()).isEqualTo(4);
  }

  @Test
  void sessionsEndByRemovalAndByIdleRangeAndOnlyExistingOnesMoveWithXx() {
    RoomReplay replay =
        replay(
            lua("\"ZADD\" \"" + SESSIONS + "\" \"100\" \"1|a\" \"200\" \"1|b\" \"300\" \"1|c\""),
            lua("\"ZREM\" \"" + SESSIONS + "\" \"1|c\""),
            lua("\"ZREMRANGEBYSCORE\" \"" + SESSIONS + "\" \"-inf\" \"150\""),
            lua("\"ZADD\" \"" + SESSIONS + "\" \"XX\" \"GT\" \"400\" \"1|a\""),
            lua("\"ZADD\" \"wr:{shop}:1:running\" \"500\" \"e\""));

    assertThat(replay.sessions()).isEqualTo(1);
    assertThat(replay.maxSessions()).isEqualTo(3);
    assertThat(replay.admissions()).hasSize(3);
  }
}
