package io.anteroom.gateway.token;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PassTests {

  private static final Instant ISSUED = Instant.parse("2026-06-01T10:00:00Z");

  private final Pass pass =
      new Pass(
          TokenFixtures.VISITOR,
          "flash-sale",
          List.of(
              new Entitlement("sku-1", ISSUED.plusSeconds(600), ISSUED),
              new Entitlement(QueueId.ROOM_WIDE, ISSUED.plusSeconds(60), ISSUED.minusSeconds(30))),
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
  void othersOpenAtLeaveOutTheItemAndThoseEnded() {
    assertThat(pass.othersOpenAt("sku-1", ISSUED))
        .extracting(Entitlement::item)
        .containsExactly("_");
    assertThat(pass.othersOpenAt("sku-2", ISSUED.plusSeconds(61)))
        .extracting(Entitlement::item)
        .containsExactly("sku-1");
  }

  @Test
  void anEntitlementIsDueForConfirmationOneIntervalAfterItsLastCheck() {
    Entitlement entitlement = new Entitlement("sku-1", ISSUED.plusSeconds(600), ISSUED);

    assertThat(entitlement.dueAt(ISSUED.plusSeconds(60).minusMillis(1), Duration.ofSeconds(60)))
        .isFalse();
    assertThat(entitlement.dueAt(ISSUED.plusSeconds(60), Duration.ofSeconds(60))).isTrue();
  }
}
