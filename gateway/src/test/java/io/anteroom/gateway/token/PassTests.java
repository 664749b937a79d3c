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

  @Test
  void anOddLifetimeIsHalvedToTheNanosecondAsDurationDividesIt() {
    for (long seconds : new long[] {1, 7, 601, 86_401}) {
      Instant expires = ISSUED.plusSeconds(seconds).plusNanos(3);
      Pass odd =
          new Pass(TokenFixtures.VISITOR, "flash-sale", List.of("sku-1"), ISSUED, expires, "id");
      Instant middle = ISSUED.plus(Duration.between(ISSUED, expires).dividedBy(2));

      assertThat(odd.pastHalfLife(middle.minusNanos(1))).as("%ss", seconds).isFalse();
      assertThat(odd.pastHalfLife(middle)).as("%ss", seconds).isTrue();
    }
  }

  @Test
  void aPassThatExpiresBeforeItIsIssuedIsPastHalfLifeFromItsMiddleToo() {
    Pass backwards =
        new Pass(
            TokenFixtures.VISITOR,
            "flash-sale",
            List.of("sku-1"),
            ISSUED,
            ISSUED.minusSeconds(10),
            "id");

    assertThat(backwards.pastHalfLife(ISSUED.minusSeconds(6))).isFalse();
    assertThat(backwards.pastHalfLife(ISSUED.minusSeconds(5))).isTrue();
  }
}
