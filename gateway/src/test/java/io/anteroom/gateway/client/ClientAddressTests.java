package io.anteroom.gateway.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;

class ClientAddressTests {

  private static final List<Cidr> PROXIES =
      List.of(Cidr.parse("10.0.0.0/8"), Cidr.parse("2001:db8::/32"));

  private final ClientAddress behindProxy =
      new ClientAddress(PROXIES, ForwardedHeader.X_FORWARDED_FOR, 64);

  @Test
  void peerThatIsNotATrustedProxyIsTheClientWhateverTheHeaderSays() {
    assertThat(behindProxy.of(request("203.0.113.5", "10.1.1.1")))
        .isEqualTo(address("203.0.113.5"));
    assertThat(
            new ClientAddress(List.of(), ForwardedHeader.X_FORWARDED_FOR, 64)
                .of(request("10.0.0.2", "198.51.100.1")))
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

  @Test
  void forwardedNamesTheClientInItsForParameters() {
    ClientAddress forwarded = new ClientAddress(PROXIES, ForwardedHeader.FORWARDED, 64);

    assertThat(
            forwarded.of(
                request(
                    "10.0.0.2",
                    "Forwarded",
                    "for=198.51.100.1:5000, For=\"[2001:db8:cafe::17]:4711\";proto=https,"
                        + " by=10.0.0.5;for=10.0.0.3")))
        .isEqualTo(address("198.51.100.1"));
    assertThat(forwarded.of(request("10.0.0.2", "Forwarded", "for=\"[2606:4700::1]\";proto=https")))
        .isEqualTo(address("2606:4700::1"));
    assertThat(forwarded.of(request("10.0.0.2", "Forwarded", "for=_hidden"))).isEmpty();
    assertThat(forwarded.of(request("10.0.0.2", "Forwarded", "for=unknown"))).isEmpty();
    assertThat(forwarded.of(request("10.0.0.2", "Forwarded", "proto=https"))).isEmpty();
  }

  @Test
  void clientsUnbalancedQuoteCannotHideWhatTheProxyAppended() {
    ClientAddress forwarded = new ClientAddress(PROXIES, ForwardedHeader.FORWARDED, 64);

    assertThat(
            forwarded.of(
                request("10.0.0.2", "Forwarded", "for=\"10.1.1.1, for=10.1.1.2, for=203.0.113.5")))
        .isEqualTo(address("203.0.113.5"));
  }

  @Test
  void realIpIsTheAddressTheProxySet() {
    ClientAddress realIp = new ClientAddress(PROXIES, ForwardedHeader.X_REAL_IP, 64);

    assertThat(realIp.of(request("10.0.0.2", "X-Real-IP", "198.51.100.1")))
        .isEqualTo(address("198.51.100.1"));
    assertThat(realIp.of(request("10.0.0.2", "X-Real-IP", "198.51.100.1, 198.51.100.2"))).isEmpty();
    assertThat(realIp.of(request("203.0.113.5", "X-Real-IP", "10.0.0.9")))
        .isEqualTo(address("203.0.113.5"));
  }

  @Test
  void onlyTheConfiguredHeaderIsBelievedEvenFromATrustedProxy() {
    MockServerHttpRequest both =
        MockServerHttpRequest.get("/products/1")
            .remoteAddress(new InetSocketAddress(Cidr.literal("10.0.0.2"), 40000))
            .header("X-Forwarded-For", "203.0.113.5")
            .header("Forwarded", "for=192.0.2.66")
            .header("X-Real-IP", "192.0.2.77")
            .build();

    assertThat(behindProxy.of(both)).isEqualTo(address("203.0.113.5"));
    assertThat(new ClientAddress(PROXIES, ForwardedHeader.FORWARDED, 64).of(both))
        .isEqualTo(address("192.0.2.66"));
    assertThat(new ClientAddress(PROXIES, ForwardedHeader.X_REAL_IP, 64).of(both))
        .isEqualTo(address("192.0.2.77"));
  }

  @Test
  void ipv6ClientsAreCountedByTheirNetworkAndIpv4ClientsByTheirAddress() {
    assertThat(behindProxy.countedAs(request("10.0.0.2", "2606:4700:1:2:aaaa::1")))
        .hasValue("2606:4700:1:2:0:0:0:0/64");
    assertThat(behindProxy.countedAs(request("10.0.0.2", "2606:4700:1:2:ffff::9")))
        .hasValue("2606:4700:1:2:0:0:0:0/64");
    assertThat(behindProxy.countedAs(request("10.0.0.2", "198.51.100.1"))).hasValue("198.51.100.1");
    assertThat(behindProxy.countedAs(request("10.0.0.2", "unknown"))).isEmpty();
    ClientAddress per48 = new ClientAddress(PROXIES, ForwardedHeader.X_FORWARDED_FOR, 48);
    assertThat(per48.countedAs(request("10.0.0.2", "2606:4700:1:2:aaaa::1")))
        .hasValue("2606:4700:1:0:0:0:0:0/48");
    ClientAddress perAddress = new ClientAddress(PROXIES, ForwardedHeader.X_FORWARDED_FOR, 128);
    assertThat(perAddress.countedAs(request("2606:4700:1:2::1", null)))
        .hasValue("2606:4700:1:2:0:0:0:1");
  }

  private static MockServerHttpRequest request(String peer, String forwardedFor) {
    return request(peer, "X-Forwarded-For", forwardedFor);
  }

  private static MockServerHttpRequest request(String peer, String header, String value) {
    MockServerHttpRequest.BaseBuilder<?> builder =
        MockServerHttpRequest.get("/products/1")
            .remoteAddress(new InetSocketAddress(Cidr.literal(peer), 40000));
    if (value != null) {
      builder.header(header, value);
    }
    return builder.build();
  }

  private static Optional<InetAddress> address(String literal) {
    return Optional.of(Cidr.literal(literal));
  }
}
