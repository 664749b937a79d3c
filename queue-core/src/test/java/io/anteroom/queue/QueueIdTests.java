package io.anteroom.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class QueueIdTests {

  @Test
  void safeItemIdIsKeptAsItIs() {
    assertThat(QueueId.of("shop", "sku-42.blue_XL").item()).isEqualTo("sku-42.blue_XL");
  }

  @Test
  void unsafeItemIdIsHashedDeterministically() {
    QueueId first = QueueId.of("shop", "a}b{c:d");
    QueueId second = QueueId.of("shop", "a}b{c:d");

    assertThat(first.item()).startsWith("~").hasSize(33).isEqualTo(second.item());
    assertThat(first.item()).doesNotContain("{", "}", ":");
  }

  @Test
  void itemIdsThatDifferHashDifferently() {
    assertThat(QueueId.of("shop", "x".repeat(65)).item())
        .isNotEqualTo(QueueId.of("shop", "x".repeat(66)).item());
  }

  @Test
  void overlongItemIdIsHashed() {
    assertThat(QueueId.of("shop", "x".repeat(65)).item()).startsWith("~");
    assertThat(QueueId.of("shop", "x".repeat(64)).item()).isEqualTo("x".repeat(64));
  }

  @Test
  void rawIdCannotCollideWithAHash() {
    String hashed = QueueId.of("shop", "é").item();

    assertThat(QueueId.of("shop", hashed).item()).isNotEqualTo(hashed);
  }

  @Test
  void emptyItemIdIsRejected() {
    assertThatThrownBy(() -> QueueId.of("shop", "")).hasMessageContaining("empty");
  }

  @Test
  void invalidRoomNameIsRejected() {
    assertThatThrownBy(() -> QueueId.of("Shop", "1")).hasMessageContaining("room name");
    assertThatThrownBy(() -> QueueId.of("a:b", "1")).hasMessageContaining("room name");
    assertThatThrownBy(() -> QueueId.of("", "1")).hasMessageContaining("room name");
  }

  @Test
  void parseReadsWhatToStringWrites() {
    QueueId queue = QueueId.of("flash-sale", "weird/item?");

    assertThat(QueueId.parse(queue.toString())).isEqualTo(queue);
    assertThat(QueueId.parse("shop:_")).isEqualTo(QueueId.roomWide("shop"));
  }

  @Test
  void parseRejectsItemsThatWereNeverNormalised() {
    assertThatThrownBy(() -> QueueId.parse("shop:a{b")).hasMessageContaining("item");
    assertThatThrownBy(() -> QueueId.parse("shop")).hasMessageContaining("queue id");
  }
}
