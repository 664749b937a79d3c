package io.anteroom.gateway.activation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.anteroom.queue.QueueId;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HitCounterTests {

  @Test
  void countsPerQueueAndStartsAfreshAfterADrain() {
    HitCounter counter = new HitCounter(10);
    QueueId a = QueueId.of("shop", "a");
    counter.record(a);
    counter.record(a);
    counter.record(QueueId.of("shop", "b"));

    assertThat(counter.drain())
        .isEqualTo(new HitCounter.Drained(Map.of(a, 2L, QueueId.of("shop", "b"), 1L), 0));
    assertThat(counter.drain().counts()).isEmpty();
  }

  @Test
  void aFloodOfRandomItemsStaysWithinCapacityAndABusyItemKeepsItsCount() {
    HitCounter counter = new HitCounter(1000);
    QueueId hot = QueueId.of("shop", "hot");
    for (int i = 0; i < 200_000; i++) {
      counter.record(QueueId.of("shop", "random-" + i));
      if (i % 40 == 0) {
        counter.record(hot);
      }
    }

    HitCounter.Drained drained = counter.drain();
    assertThat(drained.counts()).hasSize(1000);
    assertThat(drained.evicted()).isEqualTo(200_001 - 1000);
    // Only its very first requests can be lost, while its count is as small as everyone's.
    assertThat(drained.counts().get(hot)).isBetween(4_990L, 5_000L);
  }

  @Test
  void capacityMustBePositive() {
    assertThatThrownBy(() -> new HitCounter(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
