package io.anteroom.gateway.room;

import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.policy.RoomPolicy;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Set;

/**
 * The gauge {@value #NAME}{@code {room}}: 1 while the room's failure policy in force on this
 * gateway is {@code open} (newcomers go to the origin unqueued when the line cannot be reached), 0
 * while it is {@code closed}. It follows the room's settings as this gateway holds them: YAML, live
 * settings, a flip held here while Redis could not be written. A queue's own failure-policy
 * override does not show. One series per configured room, registered at start-up, so gateways can
 * differ while a flip is held on one of them: combine them with {@code max}.
 */
public final class FailurePolicyGauges {

  /** The gauge's name. */
  public static final String NAME = "anteroom.gateway.failure.policy.open";

  public FailurePolicyGauges(Set<String> rooms, RoomPolicyMirror mirror, MeterRegistry meters) {
    for (String room : rooms) {
      Gauge.builder(NAME, mirror, m -> open(m.policy(room)))
          .description("1 while the room's failure policy on this gateway is open, else 0")
          .tag("room", room)
          .register(meters);
    }
  }

  private static double open(RoomPolicy policy) {
    return policy != null && policy.failurePolicy() == FailurePolicy.OPEN ? 1 : 0;
  }
}
