package io.anteroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.anteroom.gateway.client.ForwardedHeader;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.config.DurationBinding;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class GatewayPropertiesTests {

  static GatewayProperties with(int status, List<String> activate, String refresh) {
    return new GatewayProperties(
        true,
        status,
        "",
        List.of("CSS", "js"),
        activate,
        mirrorRefresh(refresh),
        Duration.ofMillis(200),
        Duration.ofSeconds(1),
        10_000,
        1000,
        List.of(),
        "x-forwarded-for",
        64,
        false,
        100,
        org.springframework.util.unit.DataSize.ofMegabytes(1),
        Duration.ofSeconds(30),
        org.springframework.util.unit.DataSize.ofMegabytes(64));
  }

  /** {@code text} read as the apps read {@code anteroom.gateway.mirror-refresh}. */
  private static Duration mirrorRefresh(String text) {
    String property = "anteroom.gateway.mirror-refresh";
    return DurationBinding.binder(new MapConfigurationPropertySource(Map.of(property, text)))
        .bind(property, Duration.class)
        .get();
  }

  @Test
  void readsQueuesToActivateAndNormalisesExtensions() {
    GatewayProperties properties = with(200, List.of("shop:1", "shop:a b"), "250ms");

    assertThat(properties.queuesToActivate())
        .containsExactly(QueueId.of("shop", "1"), QueueId.of("shop", "a b"));
    assertThat(properties.staticExtensions()).containsExactly("css", "js");
  }

  @Test
  void badValuesNameTheProperty() {
    assertThatThrownBy(() -> with(302, List.of(), "250ms"))
        .hasMessageContaining("anteroom.gateway.waiting-status");
    assertThatThrownBy(() -> with(200, List.of("shop"), "250ms"))
        .hasMessageContaining("anteroom.gateway.activate-on-start");
    assertThatThrownBy(
            () ->
                new GatewayProperties(
                    true,
                    200,
                    "",
                    List.of(),
                    List.of(),
                    Duration.ofMillis(250),
                    Duration.ofMillis(200),
                    Duration.ofSeconds(1),
                    1,
                    1,
                    List.of("10.0.0.0/33"),
                    "x-forwarded-for",
                    64,
                    false,
                    100,
                    org.springframework.util.unit.DataSize.ofMegabytes(1),
                    Duration.ofSeconds(30),
                    org.springframework.util.unit.DataSize.ofMegabytes(64)))
        .hasMessage(
            "anteroom.gateway.trusted-proxies: '10.0.0.0/33': the prefix length must be 0 to 32");
    assertThatThrownBy(() -> with(200, List.of(), "250"))
        .hasMessageContaining("anteroom.gateway.mirror-refresh");
  }

  @Test
  void readsTheForwardedHeaderAndTheIpv6PrefixAndRefusesOthers() {
    assertThat(client("X-Real-IP", 56).forwardedHeaderKind()).isEqualTo(ForwardedHeader.X_REAL_IP);
    assertThat(client("forwarded", 128).forwardedHeaderKind()).isEqualTo(ForwardedHeader.FORWARDED);
    assertThatThrownBy(() -> client("x-forwarded-host", 64))
        .hasMessage(
            "anteroom.gateway.forwarded-header: must be x-forwarded-for, forwarded or x-real-ip,"
                + " was 'x-forwarded-host'");
    assertThatThrownBy(() -> client("x-forwarded-for", 0))
        .hasMessage("anteroom.gateway.ipv6-prefix: must be 1 to 128, was 0");
    assertThatThrownBy(() -> client("x-forwarded-for", 129))
        .hasMessage("anteroom.gateway.ipv6-prefix: must be 1 to 128, was 129");
  }

  static GatewayProperties client(String forwardedHeader, int ipv6Prefix) {
    return new GatewayProperties(
        true,
        200,
        "",
        List.of(),
        List.of(),
        Duration.ofMillis(250),
        Duration.ofMillis(200),
        Duration.ofSeconds(1),
        1,
        1,
        List.of("10.0.0.0/8"),
        forwardedHeader,
        ipv6Prefix,
        false,
        100,
        org.springframework.util.unit.DataSize.ofMegabytes(1),
        Duration.ofSeconds(30),
        org.springframework.util.unit.DataSize.ofMegabytes(64));
  }
}
