package io.anteroom.gateway.room;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.RoomPolicy;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FailurePolicyGaugesTests {

  final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  final RoomPolicyMirror mirror =
      new RoomPolicyMirror(
          new RoomPolicies(
              Map.of("shop", RoomPolicy.DEFAULTS, "tickets", RoomPolicy.DEFAULTS),
              null,
              Clock.systemUTC()),
          Clock.systemUTC());

  @Test
  void flipOnThisGatewayThenTheRoomsGaugeFollowsAndTheOtherRoomsStays() {
    new FailurePolicyGauges(Set.of("shop", "tickets"), mirror, meters);
    assertThat(open("shop")).as("closed is the default").isZero();

    mirror.holdLocally("shop", FailurePolicy.OPEN);
    assertThat(open("shop")).isEqualTo(1);
    assertThat(open("tickets")).isZero();

    mirror.holdLocally("shop", FailurePolicy.CLOSED);
    assertThat(open("shop")).isZero();
  }

  double open(String room) {
    return meters.get(FailurePolicyGauges.NAME).tag("room", room).gauge().value();
  }
}
