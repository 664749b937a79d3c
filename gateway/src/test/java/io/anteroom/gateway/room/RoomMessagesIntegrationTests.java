package io.anteroom.gateway.room;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.redis.RedisConnector;
import io.anteroom.queue.redis.RedisProperties;
import io.anteroom.testing.redis.RedisServerExtension;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operator message of a room as two gateways hold it over one Redis: set on one, shown by the
 * other after its refresh, removed on both; a refresh that fails keeps the last copy.
 */
class RoomMessagesIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  final QueueKeys keys = new QueueKeys("wr");
  RedisConnector first;
  RedisConnector second;
  RoomMessages one;
  RoomMessages other;

  @BeforeEach
  void connect() {
    first =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofMillis(500), Duration.ofSeconds(1), 1000));
    second =
        RedisConnector.connect(
            new RedisProperties(redis.uri(), Duration.ofMillis(500), Duration.ofSeconds(1), 1000));
    one = new RoomMessages(first.commands(), keys, Set.of("shop", "hall"));
    other = new RoomMessages(second.commands(), keys, Set.of("shop", "hall"));
  }

  @AfterEach
  void close() {
    first.close();
    second.close();
  }

  @Test
  void aMessageSetOnOneGatewayReachesTheOtherAtItsRefresh() {
    one.set("shop", "  Doors open at 10:00  ").block();

    assertThat(one.message("shop")).isEqualTo("Doors open at 10:00");
    assertThat(other.message("shop")).as("not read yet").isNull();
    other.refresh().block();
    assertThat(other.message("shop")).isEqualTo("Doors open at 10:00");
    assertThat(other.message("hall")).isNull();

    one.set("shop", " ").block();
    assertThat(one.message("shop")).isNull();
    other.refresh().block();
    assertThat(other.message("shop")).isNull();
  }

  @Test
  void aMessageInALanguageIsShownInThatLanguageAndTheRoomsOneElsewhere() {
    one.set("shop", "Doors open at 10:00").block();
    one.set("shop", "ko", "10시에 입장이 시작됩니다").block();
    other.refresh().block();

    assertThat(other.message("shop", "ko")).isEqualTo("10시에 입장이 시작됩니다");
    assertThat(other.message("shop", "en")).isEqualTo("Doors open at 10:00");
    assertThat(other.message("shop", "ja")).isEqualTo("Doors open at 10:00");
    assertThat(other.translations("shop")).containsOnlyKeys("ko");

    one.set("shop", null).block();
    other.refresh().block();
    assertThat(other.message("shop", "ko")).isEqualTo("10시에 입장이 시작됩니다");
    assertThat(other.message("shop", "en")).as("no fallback left").isNull();

    one.set("shop", "ko", "").block();
    other.refresh().block();
    assertThat(other.message("shop", "ko")).isNull();
    assertThat(other.translations("shop")).isEmpty();
  }

  @Test
  void tooLongIsRefusedAndAHandWrittenOneIsCut() throws Exception {
    assertThatThrownBy(() -> one.set("shop", "x".repeat(RoomMessages.MAX_LENGTH + 1)))
        .hasMessageContaining("500");
    first.commands().set(keys.message("shop"), "y".repeat(800)).get(5, TimeUnit.SECONDS);

    other.refresh().block(Duration.ofSeconds(5));

    assertThat(other.message("shop")).hasSize(RoomMessages.MAX_LENGTH);
  }

  @Test
  void aFailedRefreshKeepsTheLastMessage() throws Exception {
    one.set("shop", "Sold out at 10:05").block();
    other.refresh().block();
    redis.server().stop();
    try {
      other.refresh().block(Duration.ofSeconds(10));

      assertThat(other.message("shop")).isEqualTo("Sold out at 10:05");
    } finally {
      redis.server().restart();
    }
  }
}
