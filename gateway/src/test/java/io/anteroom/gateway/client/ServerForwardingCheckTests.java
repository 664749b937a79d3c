package io.anteroom.gateway.client;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

class ServerForwardingCheckTests {

  @Test
  void acceptWhenTheStrategyIsNoneInAnySpelling() {
    for (String none : new String[] {"none", "NONE", "None"}) {
      MockEnvironment environment =
          new MockEnvironment().withProperty("server.forward-headers-strategy", none);

      assertThatCode(() -> ServerForwardingCheck.requireOff(environment))
          .doesNotThrowAnyException();
    }
  }

  @Test
  void refuseWhenTheStrategyIsUnsetThenSayWhy() {
    assertThatIllegalStateException()
        .isThrownBy(() -> ServerForwardingCheck.requireOff(new MockEnvironment()))
        .withMessageStartingWith("server.forward-headers-strategy: must be none, was unset.")
        .withMessageContaining("anteroom.gateway.trusted-proxies");
  }

  @Test
  void refuseWhenTheStrategyIsNativeOrFramework() {
    for (String on : new String[] {"native", "FRAMEWORK"}) {
      MockEnvironment environment =
          new MockEnvironment().withProperty("server.forward-headers-strategy", on);

      assertThatIllegalStateException()
          .isThrownBy(() -> ServerForwardingCheck.requireOff(environment))
          .withMessageStartingWith("server.forward-headers-strategy: must be none, was ");
    }
  }
}
