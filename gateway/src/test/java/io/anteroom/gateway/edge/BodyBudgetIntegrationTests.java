package io.anteroom.gateway.edge;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.SlowBody;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.testing.redis.RedisServerExtension;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The bodies the gateway holds while they arrive have one budget, all requests together (here 2
 * KB), and one client address may hold an eighth of it or one largest body (here 1 KB): a body that
 * would take either past is answered 503 at once and never forwarded, so one client cannot take the
 * budget from the others, nor many large bodies held open the gateway's memory; a body gives its
 * bytes back once its request is answered. Refused bodies are no answer of the origin's. Item 3x's
 * buy route (queue off) to a WireMock origin; clients told apart by X-Forwarded-For.
 */
@GatewayIntegrationTest(
    properties = {
      "anteroom.gateway.max-request-body=1KB",
      "anteroom.gateway.request-bodies-held=2KB",
      "anteroom.gateway.request-body-timeout=10s",
      "anteroom.gateway.trusted-proxies=127.0.0.1"
    })
class BodyBudgetIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @Autowired MeterRegistry meters;
  final List<Socket> sockets = new ArrayList<>();

  @BeforeAll
  static void buy() {
    origin.stubFor(
        post(urlPathMatching("/products/3[0-9]/buy")).willReturn(aResponse().withStatus(200)));
  }

  @AfterEach
  void close() throws Exception {
    for (Socket socket : sockets) {
      socket.close();
    }
    await().atMost(Duration.ofSeconds(5)).until(() -> heldBytes() == 0);
  }

  /** A connection from {@code client} that has sent a buy of {@code length} and {@code sent}. */
  Socket buying(String client, int item, int length, int sent) throws Exception {
    Socket socket = new Socket("127.0.0.1", port);
    sockets.add(socket);
    socket.setSoTimeout(15_000);
    String head =
        "POST /products/"
            + item
            + "/buy HTTP/1.1\r\nHost: shop\r\nX-Forwarded-For: "
            + client
            + "\r\nContent-Type: text/plain\r\nContent-Length: "
            + length
            + "\r\n\r\n";
    send(socket, head + "x".repeat(sent));
    return socket;
  }

  static void send(Socket socket, String text) throws Exception {
    OutputStream out = socket.getOutputStream();
    out.write(text.getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  double heldBytes() {
    return meters.get(BodyBuffer.HELD).gauge().value();
  }

  void awaitHeld(long bytes) {
    await().atMost(Duration.ofSeconds(5)).until(() -> heldBytes() == bytes);
  }

  double refused() {
    return meters.counter(BodyBuffer.REFUSED, "reason", "no-room").count();
  }

  long originAnswers() {
    return meters.find("anteroom.gateway.origin").timers().stream().mapToLong(t -> t.count()).sum();
  }

  @Test
  void aClientHoldsAtMostItsShareWhileOthersStillSendTheirs() throws Exception {
    Socket held = buying("203.0.113.1", 34, 800, 700);
    awaitHeld(700);
    long answered = originAnswers();
    double refusedBefore = refused();

    int sameClient = SlowBody.status(buying("203.0.113.1", 35, 600, 600));
    awaitHeld(700);
    int otherClient = SlowBody.status(buying("203.0.113.2", 36, 600, 600));
    send(held, "x".repeat(100));
    int heldAtLast = SlowBody.status(held);

    assertThat(new int[] {sameClient, otherClient, heldAtLast}).containsExactly(503, 200, 200);
    assertThat(refused() - refusedBefore).isOne();
    assertThat(originAnswers() - answered)
        .as("the refusal is no answer of the origin's")
        .isEqualTo(2);
    assertThat(origin.findAll(postRequestedFor(urlPathEqualTo("/products/35/buy")))).isEmpty();
  }

  @Test
  void aBodyBeyondTheWholeBudgetIsAnswered503UntilAHeldOneIsAnswered() throws Exception {
    Socket first = buying("203.0.113.11", 37, 1000, 900);
    buying("203.0.113.12", 38, 1000, 900);
    awaitHeld(1800);

    int beyond = SlowBody.status(buying("203.0.113.13", 39, 600, 600));
    awaitHeld(1800);
    send(first, "x".repeat(100));
    int firstAtLast = SlowBody.status(first);
    awaitHeld(900);
    int afterwards = SlowBody.status(buying("203.0.113.13", 39, 600, 600));

    assertThat(new int[] {beyond, firstAtLast, afterwards}).containsExactly(503, 200, 200);
    assertThat(origin.findAll(postRequestedFor(urlPathEqualTo("/products/39/buy")))).hasSize(1);
  }
}
