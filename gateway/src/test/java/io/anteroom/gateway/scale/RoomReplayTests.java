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
  void admissionsAreVisitorsNewToTheRoomAtTheRoomBucketsRefillTimeWithTheItemThatTookThemIn() {
    RoomReplay replay =
        replay(
            lua("\"HSET\" \"" + BUDGET + "\" \"tokens\" \"1.000000\" \"refill\" \"1000\""),
            "+1796279600.6 [0 127.0.0.1:4000] \"echo\" \"go\"",
            lua("\"ZADD\" \"wr:{shop}:1:running\" \"900\" \"a\""),
            lua("\"ZADD\" \"wr:{shop}:2:running\" \"900\" \"b\""),
            // a late call: its now (900) is older than the refill time already stored (1000)
            lua("\"ZADD\" \"" + SESSIONS + "\" \"GT\" \"900\" \"a\" \"900\" \"b\""),
            // a visitor opening another item, and a renewal, are no admissions
            lua("\"ZADD\" \"wr:{shop}:3:running\" \"GT\" \"1100\" \"a\""),
            lua("\"ZADD\" \"" + SESSIONS + "\" \"GT\" \"1100\" \"a\""),
            lua("\"ZADD\" \"wr:{shop}:2:running\" \"XX\" \"GT\" \"1150\" \"d\""),
            lua("\"ZADD\" \"wr:{shop}:3:running\" \"GT\" \"1200\" \"d\""),
            lua("\"ZADD\" \"" + SESSIONS + "\" \"GT\" \"1200\" \"d\""),
            "+1796279600.7 [0 127.0.0.1:4000] \"echo\" \"end\"");

    assertThat(replay.admissions())
        .extracting(RoomReplay.Admission::bucketMs, RoomReplay.Admission::item)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(1000L, "1"),
            org.assertj.core.groups.Tuple.tuple(1000L, "2"),
            org.assertj.core.groups.Tuple.tuple(1200L, "3"));
    assertThat(replay.between("go", "end")).hasSize(3);
    assertThat(replay.maxSessions()).isEqualTo(3);
  }

  @Test
  void usersLeaveByRemovalAndByIdleRangeAndOnlyExistingOnesMoveWithXx() {
    RoomReplay replay =
        replay(
            lua("\"ZADD\" \"" + SESSIONS + "\" \"GT\" \"100\" \"a\" \"200\" \"b\" \"300\" \"c\""),
            lua("\"ZREM\" \"" + SESSIONS + "\" \"c\""),
            lua("\"ZREMRANGEBYSCORE\" \"" + SESSIONS + "\" \"-inf\" \"150\""),
            lua("\"ZADD\" \"" + SESSIONS + "\" \"XX\" \"GT\" \"400\" \"a\""),
            lua("\"ZADD\" \"wr:{shop}:1:running\" \"500\" \"e\""));

    assertThat(replay.sessions()).isEqualTo(1);
    assertThat(replay.maxSessions()).isEqualTo(3);
    assertThat(replay.admissions()).hasSize(3);
  }

  @Test
  void usersLeaveByTheLowestRanksAsTheBoundedTrimRemovesThem() {
    RoomReplay replay =
        replay(
            lua("\"ZADD\" \"" + SESSIONS + "\" \"100\" \"b\" \"100\" \"a\" \"300\" \"c\""),
            lua("\"ZREMRANGEBYRANK\" \"" + SESSIONS + "\" \"0\" \"1\""),
            lua("\"ZADD\" \"" + SESSIONS + "\" \"XX\" \"GT\" \"400\" \"a\""));

    assertThat(replay.sessions()).isEqualTo(1);
    assertThat(replay.maxSessions()).isEqualTo(3);
  }
}
