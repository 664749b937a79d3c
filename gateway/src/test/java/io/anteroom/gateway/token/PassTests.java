package io.anteroom.gateway.token;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueId;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PassTests {

  private static final Instant ISSUED = Instant.parse("2026-06-01T10:00:00Z");

  private final Pass pass =
      new Pass(
          TokenFixtures.VISITOR,
          "flash-sale",
          List.of("sku-1", QueueId.ROOM_WIDE),
          ISSUED,
          ISSUED.plusSeconds(600),
          "id");

  @Test
  void passOpensTheQueuesOfItsItems() {
    assertThat(pass.opens(new QueueId("flash-sale", "sku-1"))).isTrue();
    assertThat(pass.opens(QueueId.roomWide("flash-sale"))).isTrue();
  }

  @Test
  void passDoesNotOpenAnUnlistedItem() {
    assertThat(pass.opens(new QueueId("flash-sale", "sku-2"))).isFalse();
  }

  @Test
  void passDoesNotOpenTheSameItemInAnotherRoom() {
    assertThat(pass.opens(new QueueId("other-room", "sku-1"))).isFalse();
  }

  @Test
  void passIsPastHalfLifeFromTheMiddleOfItsLifetime() {
    assertThat(pass.pastHalfLife(ISSUED.plusSeconds(299))).isFalse();
    assertThat(pass.pastHalfLife(ISSUED.plusSeconds(300))).isTrue();
    assertThat(pass.pastHalfLife(ISSUED.plusSeconds(900))).isTrue();
  }
}
