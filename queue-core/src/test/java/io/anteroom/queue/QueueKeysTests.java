package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lettuce.core.cluster.SlotHash;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class QueueKeysTests {

  private final QueueKeys keys = new QueueKeys("wr");

  @Test
  void keysFollowTheDocumentedLayout() {
    QueueId queue = QueueId.of("shop", "42");

    assertThat(keys.scriptKeys(queue))
        .containsExactly(
            "wr:{shop}:42:waiting",
            "wr:{shop}:42:running",
            "wr:{shop}:42:finished",
            "wr:{shop}:42:seen",
            "wr:{shop}:42:state",
            "wr:{shop}:sessions",
            "wr:{shop}:budget",
            "wr:{shop}:42:admitted");
    assertThat(keys.hits(queue)).isEqualTo("wr:{shop}:42:hits");
    assertThat(keys.budget("shop")).isEqualTo("wr:{shop}:budget");
    assertThat(keys.arrivals("shop")).isEqualTo("wr:{shop}:arrivals");
    assertThat(keys.active()).isEqualTo("wr:active");
    assertThat(keys.settings("shop")).isEqualTo("wr:settings:shop");
    assertThat(keys.idle("shop")).isEqualTo("wr:idle:shop");
    assertThat(keys.audit()).isEqualTo("wr:audit");
    assertThat(keys.places("shop", "AAAAAAAAAAAAAAAAAAAAAA"))
        .isEqualTo("wr:places:shop:AAAAAAAAAAAAAAAAAAAAAA");
    assertThat(keys.newPlaces("shop", "203.0.113.7", 29_000_000))
        .isEqualTo("wr:newplaces:shop:203.0.113.7:29000000");
  }

  @Test
  void allKeysOfARoomShareOneClusterSlot() {
    for (QueueId queue :
        new QueueId[] {
          QueueId.of("shop", "42"),
          QueueId.of("flash-sale", "sku-9"),
          QueueId.roomWide("tickets"),
          QueueId.of("shop", "needs hashing {}")
        }) {
      int[] slots = Arrays.stream(keys.scriptKeys(queue)).mapToInt(SlotHash::getSlot).toArray();

      assertThat(slots).as("slots of %s", queue).containsOnly(slots[0]);
      assertThat(SlotHash.getSlot(keys.hits(queue)))
          .as("settle.lua takes the hits key with the others")
          .isEqualTo(slots[0]);
      assertThat(SlotHash.getSlot(keys.budget(queue.room())))
          .as("room_admit.lua takes the room's budget with its queues' keys")
          .isEqualTo(slots[0]);
      assertThat(SlotHash.getSlot(keys.arrivals(queue.room())))
          .as("the room's recording lives with the room")
          .isEqualTo(slots[0]);
      assertThat(slots[0]).isEqualTo(SlotHash.getSlot(queue.room()));
    }
  }

  @Test
  void differentRoomsSpreadOverSlots() {
    long distinct =
        java.util.stream.IntStream.range(0, 100)
            .map(i -> SlotHash.getSlot(keys.waiting(QueueId.of("room-" + i, "42"))))
            .distinct()
            .count();

    assertThat(distinct).isGreaterThan(90);
  }

  @Test
  void prefixMustBeSafe() {
    assertThatThrownBy(() -> new QueueKeys("w r")).hasMessageContaining("key prefix");
    assertThatThrownBy(() -> new QueueKeys("{wr}")).hasMessageContaining("key prefix");
  }

  @Test
  void shadowKeysAreASecondLayoutInTheRoomsSlotThatNoRealKeyCanSpell() {
    QueueId queue = QueueId.of("shop", "42");
    QueueKeys shadow = new QueueKeys("abcdefghijklmnopqrstuvwxyz012345").shadow();

    assertThat(shadow.waiting(queue))
        .isEqualTo("abcdefghijklmnopqrstuvwxyz012345:shadow:{shop}:42:waiting");
    assertThat(keys.shadow().waits(queue)).isEqualTo("wr:shadow:{shop}:42:waits");
    assertThat(keys.shadow().shadow().waiting(queue)).isEqualTo("wr:shadow:{shop}:42:waiting");
    assertThat(Arrays.stream(keys.shadow().scriptKeys(queue)).mapToInt(SlotHash::getSlot))
        .containsOnly(SlotHash.getSlot(keys.waiting(queue)));
    assertThat(keys.shadow().scriptKeys(queue))
        .doesNotContainAnyElementsOf(Arrays.asList(keys.scriptKeys(queue)));
  }
}
