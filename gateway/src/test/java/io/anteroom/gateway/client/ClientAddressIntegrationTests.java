package io.anteroom.gateway.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.redis.RedisServerExtension;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.env.Environment;

/**
 * The client's address through the real gateway on a detected cloud platform (Kubernetes, where
 * Spring Boot would turn Reactor Netty's forwarded-header handling on): the connection's peer is
 * the client, and forwarded headers count only from {@code anteroom.gateway.trusted-proxies}
 * (127.0.0.2 here). Requests come from 127.0.0.1, an ordinary client, or from 127.0.0.2, the proxy.
 * Every queue holds everyone (queue-all) and no worker runs.
 */
@GatewayIntegrationTest(
    properties = {
      "spring.main.cloud-platform=kubernetes",
      "anteroom.gateway.trusted-proxies=127.0.0.2",
      "anteroom.rooms.shop.mode=queue-all",
      "anteroom.rooms.shop.bypass-networks=198.51.100.0/24, 2001:db8:ffff::/48"
    })
class ClientAddressIntegrationTests {

  static final String CLIENT = "127.0.0.1";
  static final String PROXY = "127.0.0.2";

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();
  static RedisClient client;
  static RedisCommands<String, String> direct;

  @BeforeAll
  static void connect() {
    client = RedisClient.create(redis.uri());
    direct = client.connect().sync();
  }

  @AfterAll
  static void stop() {
    client.shutdown();
  }

  @LocalServerPort int port;
  @Autowired RoomPolicyMirror policies;
  @Autowired SettingsStore settings;
  @Autowired Environment environment;

  /** The per-address counts are per room: each test starts from none. */
  @BeforeEach
  void forgetCountedPlaces() {
    List<String> counted = direct.keys("wr:newplaces:*");
    if (!counted.isEmpty()) {
      direct.del(counted.toArray(String[]::new));
    }
  }

  /** A queue of the shop with someone waiting, allowing {@code perMinute} new places an address. */
  String queueLimitedTo(String item, int perMinute) {
    Visitor.lineUpSomeone(port, "/products/" + item);
    settings
        .put("shop", item, Map.of("new-places-per-ip-per-minute", Integer.toString(perMinute)))
        .block();
    policies.refresh().block();
    awayFromTheMinutesEnd();
    return "/products/" + item;
  }

  /** Waits until the current one-minute window has at least 10 s left, so a test fits in one. */
  static void awayFromTheMinutesEnd() {
    await()
        .atMost(Duration.ofSeconds(15))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> Instant.now().getEpochSecond() % 60 < 50);
  }

  List<Integer> statuses(String from, String path, List<Map<String, String>> headers) {
    List<Integer> statuses = new ArrayList<>();
    for (Map<String, String> sent : headers) {
      statuses.add(new Peer(from).get(CLIENT, port, path, sent).status());
    }
    return statuses;
  }

  static Map<String, String> header(String name, String address) {
    return Map.of(
        name,
        switch (name) {
          case "Forwarded" ->
              address.contains(":") ? "for=\"[" + address + "]\"" : "for=" + address;
          default -> address;
        });
  }

  @ParameterizedTest
  @ValueSource(strings = {"X-Forwarded-For", "Forwarded", "X-Real-IP"})
  void spoofedForwardedHeadersFromAnUntrustedPeerDoNotDodgeThePerAddressLimit(String name) {
    assertThat(CloudPlatform.getActive(environment)).isEqualTo(CloudPlatform.KUBERNETES);
    String path =
        queueLimitedTo(
            switch (name) {
              case "X-Forwarded-For" -> "611";
              case "Forwarded" -> "612";
              default -> "613";
            },
            2);
    List<Map<String, String>> spoofed = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      spoofed.add(header(name, "203.0.113." + i));
    }

    assertThat(statuses(CLIENT, path, spoofed)).containsExactly(200, 200, 429, 429, 429, 429);
  }

  @ParameterizedTest
  @ValueSource(strings = {"X-Forwarded-For", "Forwarded", "X-Real-IP"})
  void bypassNetworksCannotBeReachedByHeaderFromAnUntrustedPeer(String name) {
    Visitor.lineUpSomeone(port, "/products/660");

    for (String inside : List.of("198.51.100.7", "2001:db8:ffff::7")) {
      Peer.Answer answer =
          new Peer(CLIENT).get(CLIENT, port, "/products/660", header(name, inside));

      assertThat(answer.body()).as(name + ": " + inside).contains("\"state\":\"waiting\"");
    }
  }

  @Test
  void aTrustedProxysClientsAreCountedEachOnTheirOwn() {
    String path = queueLimitedTo("620", 2);
    Map<String, String> first = Map.of("X-Forwarded-For", "203.0.113.1");
    Map<String, String> second = Map.of("X-Forwarded-For", "192.0.2.9, 203.0.113.2");

    assertThat(statuses(PROXY, path, List.of(first, first, second, second, first, second)))
        .containsExactly(200, 200, 200, 200, 429, 429);
    // The proxy's own requests, and the one client connecting straight, have counts of their own.
    assertThat(statuses(PROXY, path, List.of(Map.of()))).containsExactly(200);
    assertThat(statuses(CLIENT, path, List.of(first))).containsExactly(200);
  }

  @Test
  void aTrustedProxyCanNameAClientInABypassNetwork() {
    Visitor.lineUpSomeone(port, "/products/650");

    Peer.Answer answer =
        new Peer(PROXY)
            .get(CLIENT, port, "/products/650", Map.of("X-Forwarded-For", "198.51.100.7"));

    assertThat(answer.body()).contains("Product page");
  }

  @Test
  void ipv6ClientsBehindATrustedProxyAreCountedPerSlash64() {
    String path = queueLimitedTo("630", 2);
    List<Map<String, String>> sameNetwork = new ArrayList<>();
    for (String host : List.of("a", "b", "c")) {
      sameNetwork.add(Map.of("X-Forwarded-For", "2001:db8:1:2::" + host));
    }

    assertThat(statuses(PROXY, path, sameNetwork)).containsExactly(200, 200, 429);
    assertThat(statuses(PROXY, path, List.of(Map.of("X-Forwarded-For", "2001:db8:1:3::a"))))
        .containsExactly(200);
  }

  @Test
  void anIpv6PeerIsCountedByItsSlash64() {
    String path = queueLimitedTo("640", 2);

    List<Integer> statuses = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      statuses.add(new Peer("::1").get("::1", port, path, Map.of()).status());
    }

    assertThat(statuses).containsExactly(200, 200, 429);
    assertThat(direct.keys("wr:newplaces:shop:*"))
        .singleElement()
        .asString()
        .startsWith("wr:newplaces:shop:0:0:0:0:0:0:0:0/64:");
  }
}
