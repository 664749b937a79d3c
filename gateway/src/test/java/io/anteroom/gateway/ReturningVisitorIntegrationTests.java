package io.anteroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.anteroom.gateway.activation.ActiveQueueMirror;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.Activation;
import io.anteroom.queue.ActiveQueues;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.policy.RoomPolicies;
import io.anteroom.queue.policy.SettingsStore;
import io.anteroom.testing.redis.RedisServerExtension;
import io.anteroom.worker.admission.WorkerFixture;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A visitor whose page was away longer than abandon-after loses the place to the admission worker,
 * and on coming back is told plainly that it was released and that they joined again: on the page
 * and in the JSON status.
 */
@GatewayIntegrationTest
class ReturningVisitorIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();
  @RegisterExtension static WireMockOrigin origin = new WireMockOrigin();

  @LocalServerPort int port;
  @Autowired ActiveQueues active;
  @Autowired ActiveQueueMirror mirror;
  @Autowired RoomPolicyMirror policyMirror;
  @Autowired SettingsStore settings;
  @Autowired RoomPolicies policies;
  @Autowired QueueKeys keys;
  @Autowired QueueStore store;

  @Test
  void aVisitorAwayLongerThanAbandonAfterIsToldThePlaceWasReleasedAndTheyJoinedAgain() {
    // Paused, so nobody is admitted and the line only loses those who stopped polling.
    QueueId queue = QueueId.of("shop", "81");
    settings.put("shop", "81", Map.of("mode", "paused", "abandon-after", "1s")).block();
    active.activate(queue, Activation.MANUAL).block();
    mirror.refresh().block();
    policyMirror.refresh().block();
    await()
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                mirror.isActive(queue)
                    && policyMirror.policy(queue).abandonAfter().equals(Duration.ofSeconds(1)));
    Visitor toPage = new Visitor(port);
    Visitor toStatus = new Visitor(port);
    assertThat(Visitor.field(toPage.json("/products/81").body(), "position")).isEqualTo(1);
    assertThat(Visitor.field(toStatus.json("/products/81").body(), "position")).isEqualTo(2);
    HttpResponse<String> fresh = toStatus.page("/products/81");
    assertThat(fresh.body()).contains("id=\"requeued\" hidden");

    try (WorkerFixture worker = WorkerFixture.running(redis.uri(), keys, policies, "100ms")) {
      await()
          .atMost(Duration.ofSeconds(15))
          .until(() -> store.counts(queue).block().abandoned() == 2);
    }

    HttpResponse<String> page = toPage.page("/products/81");
    HttpResponse<String> poll = toStatus.json("/_anteroom/status?room=shop");
    // The poll's page loads its URL again, joining through the room's defences.
    HttpResponse<String> reload = toStatus.json("/products/81");
    HttpResponse<String> nextPoll = toStatus.json("/_anteroom/status?room=shop");

    assertThat(page.statusCode()).isEqualTo(200);
    assertThat(page.body())
        .contains("id=\"requeued\" >")
        .contains("Your earlier place was released", "joined the line again");
    assertThat(poll.statusCode()).isEqualTo(404);
    assertThat(Visitor.text(poll.body(), "state")).isEqualTo("unknown");
    assertThat(reload.body()).contains("\"requeued\":true");
    assertThat(Visitor.field(reload.body(), "position")).isEqualTo(2);
    assertThat(nextPoll.body()).contains("\"requeued\":false");
  }
}
