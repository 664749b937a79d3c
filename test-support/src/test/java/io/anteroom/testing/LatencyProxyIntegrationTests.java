package io.anteroom.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.anteroom.testing.redis.RedisServerExtension;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The proxy in front of a real redis-server: replies come through intact, never before their delay,
 * the delay changes while connected, and closing ends the connections.
 */
class LatencyProxyIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  LatencyProxy proxy;

  @BeforeEach
  void start() {
    proxy = LatencyProxy.to(redis::port);
  }

  @AfterEach
  void close() {
    proxy.close();
  }

  @Test
  void withoutDelayRequestsAndRepliesPassUnchanged() throws IOException {
    try (Socket client = connect()) {
      assertThat(send(client, "SET greeting hello")).isEqualTo("+OK\r\n");
      assertThat(send(client, "GET greeting")).isEqualTo("$5\r\nhello\r\n");
      assertThat(proxy.connections()).isEqualTo(1);
      assertThat(proxy.redisUri()).isEqualTo("redis://127.0.0.1:" + proxy.port());
    }
  }

  @Test
  void aReplyComesNoSoonerThanTheDelayInForceWhenRedisSentIt() throws IOException {
    try (Socket client = connect()) {
      proxy.delay(Duration.ofMillis(300));

      long start = System.nanoTime();
      assertThat(send(client, "PING")).isEqualTo("+PONG\r\n");
      long took = System.nanoTime() - start;

      // A lower bound only: the delay is a floor, however busy the machine.
      assertThat(Duration.ofNanos(took)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
      proxy.delay(Duration.ZERO);
      assertThat(send(client, "PING")).isEqualTo("+PONG\r\n");
      // The proxy counts a reply as sent once its write returns, which may be after it arrived.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (proxy.held() != 0 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertThat(proxy.held()).isZero();
    }
  }

  @Test
  void repliesHeldBackAreCountedUntilTheyAreDue() throws Exception {
    try (Socket client = connect()) {
      proxy.delay(Duration.ofSeconds(30));
      client.getOutputStream().write("PING\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
      client.getOutputStream().flush();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (proxy.held() == 0 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertThat(proxy.held()).isPositive();
    }
  }

  @Test
  void closeEndsTheConnectionsAndRefusesNewOnes() throws IOException {
    try (Socket client = connect()) {
      assertThat(send(client, "PING")).isEqualTo("+PONG\r\n");

      proxy.close();

      client.setSoTimeout(5_000);
      assertThat(client.getInputStream().read()).as("end of stream").isEqualTo(-1);
    }
    assertThat(pingOnANewConnection()).as("a new connection after close").isEqualTo("no answer");
  }

  @Test
  void aNegativeDelayIsRefused() {
    assertThatThrownBy(() -> proxy.delay(Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private Socket connect() throws IOException {
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
    socket.setSoTimeout(10_000);
    return socket;
  }

  /**
   * What a PING on a new connection to the proxy's port gets: "no answer" when the connection is
   * refused, closed without a reply, or (rarely, as a connect to a loopback port nobody listens on
   * can connect to itself) the PING comes back as it was sent.
   */
  private String pingOnANewConnection() {
    try (Socket client = connect()) {
      String reply = send(client, "PING");
      return reply.isEmpty() || reply.equals("PING\r\n") ? "no answer" : reply;
    } catch (IOException refused) {
      return "no answer";
    }
  }

  /** Sends one inline command and reads its reply, which must come as one read. */
  private static String send(Socket client, String command) throws IOException {
    OutputStream out = client.getOutputStream();
    out.write((command + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
    InputStream in = client.getInputStream();
    byte[] buffer = new byte[1024];
    int read = in.read(buffer);
    return new String(buffer, 0, Math.max(read, 0), StandardCharsets.US_ASCII);
  }
}
