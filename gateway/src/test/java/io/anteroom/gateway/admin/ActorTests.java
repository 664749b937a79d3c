package io.anteroom.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.reactive.function.server.MockServerRequest;

class ActorTests {

  @Test
  void actorIsTheTokensNameWhateverTheCallerSendsAsActor() {
    MockServerRequest request =
        MockServerRequest.builder()
            .header("X-Anteroom-Actor", "mallory")
            .remoteAddress(new InetSocketAddress("10.0.0.7", 40000))
            .attribute(Operator.ATTRIBUTE, new Operator("alice", Role.OPERATOR))
            .build();

    assertThat(Actor.of(request)).isEqualTo(new Actor("alice", "10.0.0.7"));
  }
}
