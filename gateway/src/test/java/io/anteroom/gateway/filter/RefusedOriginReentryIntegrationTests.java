package io.anteroom.gateway.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.GatewayIntegrationTest;
import io.anteroom.gateway.Visitor;
import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.VisitorStatus;
import io.anteroom.testing.FreePorts;
import io.anteroom.testing.redis.RedisServerExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An origin nobody listens for: the visitor the line lets in finds the connection refused on their
 * first request, and goes back to the front of the line instead of seeing an error.
 */
@GatewayIntegrationTest
class RefusedOriginReentryIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  /** A port picked free and left closed. */
  static final int CLOSED = FreePorts.pick();

  @DynamicPropertySource
  static void closedOrigin(DynamicPropertyRegistry registry) {
    registry.add("ANTEROOM_ORIGIN", () -> "http://127.0.0.1:" + CLOSED);
  }

  final QueueId one = QueueId.of("shop", "1");

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired QueueStore store;
  @Autowired TokenCodec tokens;

  @Test
  void aVisitorLetInWhoseConnectionToTheOriginIsRefusedGoesBackToTheFront() {
    active.activate(one, Activation.MANUAL).block();
    await().atMost(Duration.ofSeconds(10)).until(() -> mirror.isActive(one));
    Visitor visitor = new Visitor(port);

    HttpResponse<String> answer = visitor.page("/products/1?colour=red");

    assertThat(answer.statusCode()).isEqualTo(303);
    assertThat(answer.headers().firstValue("Location")).hasValue("/products/1?colour=red");
    assertThat(answer.body()).isEmpty();
    assertThat(visitor.cookie("anteroom_pass_shop")).isNull();
    Verified<Ticket> ticket = tokens.readTicket(visitor.cookie("anteroom_ticket_shop"), "shop");
    assertThat(ticket.isValid()).isTrue();
    String id = ((Verified.Valid<Ticket>) ticket).value().visitor();
    VisitorStatus status = store.status(one, id).block();
    assertThat(status.state()).isEqualTo(VisitorStatus.State.WAITING);
    assertThat(status.front()).isTrue();
    assertThat(visitor.page("/products/1?colour=red").body())
        .contains("will be let in again first");
  }
}
