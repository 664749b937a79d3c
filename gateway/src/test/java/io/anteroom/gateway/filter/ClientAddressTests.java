package io.anteroom.gateway.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;

class ClientAddressTests {

  final ClientAddress addresses =
      new ClientAddress(List.of("10.0.0.0/8", "192.0.2.10", "fd00::/8"));

  static MockServerHttpRequest from(String peer, String... forwardedFor) {
    MockServerHttpRequest.BaseBuilder<?> request =
        MockServerHttpRequest.get("/products/1").remoteAddress(new InetSocketAddress(peer, 4000));
    for (String value : forwardedFor) {
      request.header("X-Forwarded-For", value);
    }
    return request.build();
  }

  @Test
  void anUntrustedPeerIsTheClientWhateverTheHeaderSays() {
    assertThat(addresses.of(from("198.51.100.4", "203.0.113.1"))).isEqualTo("198.51.100.4");
  }

  @Test
  void aTrustedProxyIsBelievedForTheHopItAdded() {
    assertThat(addresses.of(from("10.1.2.3", "203.0.113.1"))).isEqualTo("203.0.113.1");
    assertThat(addresses.of(from("192.0.2.10", "203.0.113.1"))).isEqualTo("203.0.113.1");
  }

  @Test
  void theRightmostAddressThatIsNotATrustedProxyIsTheClient() {
    // The client wrote "1.1.1.1" itself; 203.0.113.1 connected to the first trusted proxy.
    assertThat(addresses.of(from("10.0.0.1", "1.1.1.1, 203.0.113.1, 10.0.0.2")))
        .isEqualTo("203.0.113.1");
    assertThat(addresses.of(from("10.0.0.1", "1.1.1.1", "203.0.113.1"))).isEqualTo("203.0.113.1");
  }

  @Test
  void aChainOfOnlyTrustedProxiesEndsAtItsLeftmostAddress() {
    assertThat(addresses.of(from("10.0.0.1", "10.0.0.3, 10.0.0.2"))).isEqualTo("10.0.0.3");
    assertThat(addresses.of(from("10.0.0.1"))).isEqualTo("10.0.0.1");
  }

  @Test
  void aHopThatIsNotAnAddressStopsTheWalkAtTheLastTrustedOne() {
    assertThat(addresses.of(from("10.0.0.1", "203.0.113.1, example.org"))).isEqualTo("10.0.0.1");
    assertThat(addresses.of(from("10.0.0.1", "unknown"))).isEqualTo("10.0.0.1");
  }

  @Test
  void ipv6HopsAndNetworksWork() {
    assertThat(addresses.of(from("fd12::1", "[2001:db8::7]"))).isEqualTo("2001:db8:0:0:0:0:0:7");
    assertThat(addresses.of(from("fe80::1", "2001:db8::7"))).isEqualTo("fe80:0:0:0:0:0:0:1");
  }

  @Test
  void networksMatchOnTheirPrefixOnly() {
    ClientAddress narrow = new ClientAddress(List.of("203.0.113.128/25"));

    assertThat(narrow.of(from("203.0.113.200", "198.51.100.1"))).isEqualTo("198.51.100.1");
    assertThat(narrow.of(from("203.0.113.127", "198.51.100.1"))).isEqualTo("203.0.113.127");
  }

  @Test
  void badEntriesAreRefusedNamingThem() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new ClientAddress(List.of("proxy.internal")))
        .withMessageContaining("trusted-proxies")
        .withMessageContaining("proxy.internal");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> new ClientAddress(List.of("10.0.0.0/33")))
        .withMessageContaining("prefix length");
  }
}
