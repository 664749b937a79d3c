package io.anteroom.gateway.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CidrTests {

  @Test
  void ipv4RangeHoldsItsAddressesOnly() {
    Cidr range = Cidr.parse("10.20.0.0/16");

    assertThat(range.contains(Cidr.literal("10.20.255.1"))).isTrue();
    assertThat(range.contains(Cidr.literal("10.21.0.1"))).isFalse();
    assertThat(range.contains(Cidr.literal("::ffff:10.20.0.9"))).isTrue();
    assertThat(range.contains(Cidr.literal("2001:db8::1"))).isFalse();
    assertThat(range).hasToString("10.20.0.0/16");
  }

  @Test
  void ipv6RangeAndSingleAddresses() {
    assertThat(Cidr.parse("2001:db8::/32").contains(Cidr.literal("2001:db8:ffff::1"))).isTrue();
    assertThat(Cidr.parse("2001:db8::/32").contains(Cidr.literal("2001:db9::1"))).isFalse();
    assertThat(Cidr.parse("[::1]").contains(Cidr.literal("::1"))).isTrue();
    assertThat(Cidr.parse("192.0.2.7").contains(Cidr.literal("192.0.2.8"))).isFalse();
    assertThat(Cidr.parse("0.0.0.0/0").contains(Cidr.literal("198.51.100.1"))).isTrue();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "localhost",
        "example.com",
        "10.0.0.0/33",
        "10.0.0.0/x",
        "::/129",
        "1.2.3",
        "999.1.1.1",
        "1:2",
        ":::::"
      })
  void whatIsNotAnAddressOrRangeIsRefusedWithoutALookup(String text) {
    assertThatIllegalArgumentException().isThrownBy(() -> Cidr.parse(text));
  }

  @Test
  void networkOfAnAddressKeepsItsFirstBits() {
    assertThat(Cidr.network(Cidr.literal("2001:db8:1:2:aaaa::1"), 64))
        .isEqualTo(Cidr.parse("2001:db8:1:2::/64"))
        .hasToString("2001:db8:1:2:0:0:0:0/64");
    assertThat(Cidr.network(Cidr.literal("192.0.2.77"), 24)).isEqualTo(Cidr.parse("192.0.2.0/24"));
    assertThatIllegalArgumentException()
        .isThrownBy(() -> Cidr.network(Cidr.literal("192.0.2.77"), 33));
  }
}
