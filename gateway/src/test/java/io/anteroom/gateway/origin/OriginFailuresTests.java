package io.anteroom.gateway.origin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

class OriginFailuresTests {

  @Test
  void anOriginNotReachedOrDroppingTheConnectionIsABadGateway() {
    assertThat(OriginFailures.statusOf(new ConnectException("refused")))
        .isEqualTo(HttpStatus.BAD_GATEWAY);
    assertThat(OriginFailures.statusOf(new SocketException("Connection reset")))
        .isEqualTo(HttpStatus.BAD_GATEWAY);
    assertThat(OriginFailures.statusOf(new IllegalStateException(new IOException("closed"))))
        .isEqualTo(HttpStatus.BAD_GATEWAY);
  }

  @Test
  void anOriginNotAnsweringInTimeIsAGatewayTimeout() {
    assertThat(OriginFailures.statusOf(new TimeoutException()))
        .isEqualTo(HttpStatus.GATEWAY_TIMEOUT);
    assertThat(OriginFailures.statusOf(io.netty.handler.timeout.ReadTimeoutException.INSTANCE))
        .isEqualTo(HttpStatus.GATEWAY_TIMEOUT);
  }

  @Test
  void anyOtherErrorIsNotTheOrigins() {
    assertThat(OriginFailures.statusOf(new IllegalArgumentException("bad"))).isNull();
    assertThat(OriginFailures.statusOf(null)).isNull();
  }

  @Test
  void aCycleAmongTheCausesEndsTheWalk() {
    IllegalStateException first = new IllegalStateException("first");
    IllegalStateException second = new IllegalStateException("second", first);
    first.initCause(second);

    assertThat(OriginFailures.statusOf(first)).isNull();
  }
}
