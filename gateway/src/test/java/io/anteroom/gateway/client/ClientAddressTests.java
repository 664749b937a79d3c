package io.anteroom.gateway.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;

class ClientAddressTests {

  private final ClientAddress behindProxy =
      new ClientAddress(List.of(Cidr.parse("10.0.0.0/8"), Cidr.parse("2001:db8::/32")));

  @Test
  void peerThatIsNotATrustedProxyIsTheClientWhateverTheHeaderSays() {
    assertThat(behindProxy.of(request("203.0.113.5", "10.1.1.1")))
        .isEqualTo(address("203.0.113.5"));
    assertThat(new ClientAddress(List.of()).of(request("10.0.0.2", "198.51.100.1")))
        .isEqualTo(address("10.0.0.2"));
  }

  @Test
  void trustedProxyNamesTheClientAsTheRightmostUntrustedHop() {
    assertThat(behindProxy.of(request("10.0.0.2", "198.51.100.1")))
        .isEqualTo(address("198.51.100.1"));
    assertThat(behindProxy.of(request("10.0.0.2", "10.9.9.9, 198.51.100.1, 10.0.0.3")))
        .isEqualTo(address("198.51.100.1"));
    assertThat(behindProxy.of(request("2001:db8::2", "[2001:db8::9]:443, 198.51.100.1:5000")))
        .isEqualTo(address("198.51.100.1"));
  }

  @Test
  void clientCannotPretendToBeInsideByWritingTheHeaderItself() {
    // The client wrote 10.9.9.9; the trusted proxy appended the address it really saw.
    assertThat(behindProxy.of(request("10.0.0.2", "10.9.9.9, 203.0.113.5")))
        .isEqualTo(address("203.0.113.5"));
  }

  @Test
  void headerThatIsNotAnAddressGivesNoAnswer() {
    assertThat(behindProxy.of(request("10.0.0.2", "unknown"))).isEmpty();
    assertThat(behindProxy.of(request("10.0.0.2", "198.51.100.1, evil.test"))).isEmpty();
  }

  @Test
  void onlyTrustedHopsMeanTheLeftmostIsTheClient() {
    assertThat(behindProxy.of(request("10.0.0.2", "10.0.0.7"))).isEqualTo(address("10.0.0.7"));
    assertThat(behindProxy.of(request("10.0.0.2", null))).isEqualTo(address("10.0.0.2"));
  }

  private static MockServerHttpRequest request(String peer, String forwardedFor) {
    MockServerHttpRequest.BaseBuilder<?> builder =
        MockServerHttpRequest.get("/products/1")
            .remoteAddress(new InetSocketAddress(Cidr.literal(peer), 40000));
    if (forwardedFor != null) {
      builder.header("X-Forwarded-For", forwardedFor);
    }
    return builder.build();
  }

  private static Optional<InetAddress> address(String literal) {
    return Optional.of(Cidr.literal(literal));
  }
}
