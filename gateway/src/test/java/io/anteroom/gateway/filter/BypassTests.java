package io.anteroom.gateway.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.anteroom.gateway.client.Cidr;
import io.anteroom.gateway.client.ClientAddress;
import io.anteroom.gateway.client.ForwardedHeader;
import io.anteroom.gateway.room.ItemSource;
import io.anteroom.queue.config.AnteroomProperties;
import io.anteroom.queue.redis.RedisProperties;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpMethod;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

class BypassTests {

  static final String SECRET = "monitor-secret-0123456789";
  static final ClientAddress PEER_IS_CLIENT =
      new ClientAddress(List.of(), ForwardedHeader.X_FORWARDED_FOR, 64);
  static final ItemSource PATH_ITEM = ItemSource.parse("shop", "path:id");

  private final Bypass bypass =
      bypass(
          Map.of(
              "bypass-paths.0", "/products/*/reviews",
              "bypass-paths.1", "/health",
              "bypass-extensions", "pdf, .TXT",
              "bypass-networks", "192.0.2.0/24, 2001:db8::/32",
              "bypass-secret", SECRET));

  @Test
  void readsOfAssetsAndListedPathsPass() {
    assertThat(bypass.matches(get("/products/1/app.css"))).isTrue();
    assertThat(bypass.matches(get("/products/1/manual.pdf"))).isTrue();
    assertThat(bypass.matches(get("/products/1/notes.txt"))).isTrue();
    assertThat(bypass.matches(get("/products/1/reviews"))).isTrue();
    assertThat(bypass.matches(get("/health"))).isTrue();
    assertThat(bypass.matches(get("/products/1"))).isFalse();
    assertThat(bypass.matches(get("/products/1/reviews/2"))).isFalse();
    assertThat(bypass.matches(request(HttpMethod.POST, "/products/1/reviews", "198.51.100.1")))
        .isFalse();
  }

  @Test
  void anExtensionOnTheItemsSegmentIsPartOfTheItemNotAnAsset() {
    assertThat(bypass.matches(routed("/products/1.js", "/products/{id}", "1.js"))).isFalse();
    assertThat(bypass.matches(routed("/products/1.css", "/products/{id}/**", "1.css"))).isFalse();
    assertThat(bypass.matches(routed("/products/1.pdf", "/products/{id}", "1.pdf"))).isFalse();
    assertThat(bypass.matches(routed("/products/1/app.css", "/products/{id}/**", "1"))).isTrue();
    assertThat(bypass.matches(routed("/products/1/manual.pdf", "/products/{id}/**", "1"))).isTrue();
  }

  @Test
  void listedPathsPassWhateverTheirItem() {
    Bypass listed = bypass(Map.of("bypass-paths", "/products/*.js"));

    assertThat(listed.matches(routed("/products/1.js", "/products/{id}", "1.js"))).isTrue();
  }

  @Test
  void listedNetworksPassForAnyMethod() {
    assertThat(bypass.matches(request(HttpMethod.POST, "/products/1", "192.0.2.44"))).isTrue();
    assertThat(bypass.matches(request(HttpMethod.GET, "/products/1", "2001:db8::5"))).isTrue();
    assertThat(bypass.matches(request(HttpMethod.GET, "/products/1", "192.0.3.1"))).isFalse();
  }

  @Test
  void onlyTheExactSecretSentOncePasses() {
    assertThat(bypass.matches(withSecret(SECRET))).isTrue();
    assertThat(bypass.matches(withSecret(SECRET + "x"))).isFalse();
    assertThat(bypass.matches(withSecret(SECRET.substring(1)))).isFalse();
    assertThat(bypass.matches(withSecret(""))).isFalse();
    assertThat(
            bypass.matches(
                MockServerWebExchange.from(
                    MockServerHttpRequest.get("/products/1")
                        .header(Bypass.SECRET_HEADER, SECRET, "other")
                        .remoteAddress(peer("198.51.100.1")))))
        .isFalse();
  }

  @Test
  void roomWithoutRulesPassesOnlyDefaultAssets() {
    Bypass plain = bypass(Map.of());

    assertThat(plain.matches(get("/products/1/app.css"))).isTrue();
    assertThat(plain.matches(get("/products/1/manual.pdf"))).isFalse();
    assertThat(plain.matches(withSecret(""))).isFalse();
    assertThat(plain.matches(request(HttpMethod.GET, "/products/1", "192.0.2.44"))).isFalse();
  }

  @Test
  void badRulesAreRefusedNamingTheProperty() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> bypass(Map.of("bypass-networks", "10.0.0.0/8, intranet")))
        .withMessage(
            "anteroom.rooms.shop.bypass-networks: 'intranet' is not an IP address or CIDR range");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> bypass(Map.of("bypass-paths", "health")))
        .withMessage("anteroom.rooms.shop.bypass-paths: 'health' must start with /");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> bypass(Map.of("bypass-paths", "/a/{x")))
        .withMessageStartingWith("anteroom.rooms.shop.bypass-paths: '/a/{x' is not a path pattern");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> bypass(Map.of("bypass-secret", "short")))
        .withMessage("anteroom.rooms.shop.bypass-secret: must be at least 16 characters");
    assertThatIllegalArgumentException()
        .isThrownBy(() -> bypass(Map.of("bypass-extensions", "tar.gz")))
        .withMessage("anteroom.rooms.shop.bypass-extensions: 'tar.gz' is not a file extension");
  }

  @Test
  void bypassOptionsAreNotTakenForPolicy() {
    AnteroomProperties anteroom = anteroom(Map.of("bypass-networks.0", "192.0.2.0/24"));

    assertThat(anteroom.policies()).containsKey("shop");
    assertThat(anteroom.roomOptions().get("shop").bypassNetworks()).containsExactly("192.0.2.0/24");
  }

  private static Bypass bypass(Map<String, String> options) {
    return BypassOptions.parse(
        "shop",
        anteroom(options).roomOptions().get("shop"),
        List.of("css", "js"),
        PEER_IS_CLIENT,
        PATH_ITEM);
  }

  private static AnteroomProperties anteroom(Map<String, String> options) {
    Map<String, String> room = new LinkedHashMap<>(options);
    room.put("item", "path:id");
    return new AnteroomProperties(
        "wr",
        new RedisProperties(
            "redis://127.0.0.1:6379", Duration.ofMillis(500), Duration.ofSeconds(1), 10_000),
        Map.of(),
        Map.of("shop", room));
  }

  private static MockServerWebExchange get(String path) {
    return request(HttpMethod.GET, path, "198.51.100.1");
  }

  /** A GET routed on {@code pattern}, whose item variable {@code id} is {@code item}. */
  private static MockServerWebExchange routed(String path, String pattern, String item) {
    MockServerWebExchange exchange = get(path);
    ServerWebExchangeUtils.putUriTemplateVariables(exchange, Map.of("id", item));
    exchange
        .getAttributes()
        .put(ServerWebExchangeUtils.GATEWAY_PREDICATE_MATCHED_PATH_ATTR, pattern);
    return exchange;
  }

  private static MockServerWebExchange withSecret(String secret) {
    return MockServerWebExchange.from(
        MockServerHttpRequest.get("/products/1")
            .header(Bypass.SECRET_HEADER, secret)
            .remoteAddress(peer("198.51.100.1")));
  }

  private static MockServerWebExchange request(HttpMethod method, String path, String peer) {
    return MockServerWebExchange.from(
        MockServerHttpRequest.method(method, path).remoteAddress(peer(peer)));
  }

  private static InetSocketAddress peer(String address) {
    return new InetSocketAddress(Cidr.literal(address), 40000);
  }
}
