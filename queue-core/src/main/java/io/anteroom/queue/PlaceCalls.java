package io.anteroom.queue;

import io.anteroom.queue.policy.RoomPolicy;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What the scripts that place a visitor or say where they stand (enqueue.lua, join.lua, status.lua)
 * are given and answer alike: the place's arguments, the room's limits for the wait estimate, and
 * the parts of their replies {@link RedisQueueStore} maps the same way.
 */
final class PlaceCalls {

  private static final SecureRandom DRAWS = new SecureRandom();

  private PlaceCalls() {}

  /**
   * ARGV 1-7 of enqueue.lua and join.lua. In a room with room-wide limits nobody is admitted at
   * once: the room's admission shares its places among the queues with people waiting, and a
   * newcomer to an empty line waits for the next share (one worker tick).
   */
  static String[] placeArgs(String visitor, Instant instant, RoomPolicy policy) {
    return new String[] {
      visitor,
      Long.toString(instant.toEpochMilli()),
      Double.toString(policy.admitPerSecond()),
      Double.toString(policy.burstTokens()),
      Integer.toString(policy.maxActive()),
      policy.mode().admits() && !policy.fairness().preQueue(instant) && !policy.budget().limited()
          ? "1"
          : "0",
      policy.fairness().randomPlace(instant) ? draw() : ""
    };
  }

  /**
   * The room's limits for the wait estimate (cap_wait.lua room_wait), into {@code args} from {@code
   * at}: its total active users (0 for none), whether it limits new users per minute, and the
   * queue's share of the room's places.
   */
  static void roomLimitArgs(String[] args, int at, RoomPolicy policy, double roomShare) {
    args[at] = policy == null ? "0" : Integer.toString(policy.budget().totalActiveUsers());
    args[at + 1] = policy != null && policy.budget().newUsersPerMinute() > 0 ? "1" : "0";
    args[at + 2] = Double.toString(roomShare);
  }

  /** status.lua's reply: the queue's cap from index 5, the front flag, then the room's limits. */
  static CapWait statusCapWait(List<Long> reply, long now, RoomPolicy policy) {
    List<Long> caps = new ArrayList<>(reply.subList(5, 8));
    caps.addAll(reply.subList(9, 14));
    return CapWait.of(caps, 0, now, policy);
  }

  /** The scripts reply with the measured rate per 1000 s, as Redis replies carry integers. */
  static double perSecond(long perThousandSeconds) {
    return perThousandSeconds / 1000.0;
  }

  /** A uniform random number in [0, 1) with 53 random bits, from a strong source. */
  private static String draw() {
    return Double.toString((DRAWS.nextLong() >>> 11) * 0x1.0p-53);
  }
}
