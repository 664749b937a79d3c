package io.anteroom.gateway.activation;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Which counts go to Redis: the room turns a queue on above 50 requests a second over 3 seconds, so
 * a gateway sends an item's count once it has 15 (a tenth of 150) within the window.
 */
class PendingHitsTests {

  static final RoomPolicy POLICY =
      PolicyParser.apply(
          "test", RoomPolicy.DEFAULTS, Map.of("activate-above", "50", "activation-window", "3s"));

  static final Function<QueueId, RoomPolicy> SHOP = queue -> POLICY;

  final PendingHits pending = new PendingHits(1_000);
  final QueueId item = QueueId.of("shop", "42");

  List<PendingHits.Due> due(long second, Map<QueueId, Long> counts) {
    return pending.due(counts, SHOP, second * 1000);
  }

  @Test
  void aCountBelowATenthOfTheThresholdIsKeptAndSentOnceTheWindowsSumReachesIt() {
    assertThat(PendingHits.floor(POLICY)).isEqualTo(15);

    assertThat(due(0, Map.of(item, 8L))).isEmpty();
    assertThat(due(1, Map.of(item, 7L))).containsExactly(new PendingHits.Due(item, 15, POLICY));
    assertThat(due(2, Map.of())).isEmpty();
  }

  @Test
  void aKeptCountWhoseOldestRequestLeftTheWindowIsDropped() {
    due(0, Map.of(item, 8L));
    due(2, Map.of());

    assertThat(due(3, Map.of(item, 7L))).isEmpty();
    assertThat(pending.size()).as("only the 7 of second 3 are kept").isEqualTo(1);
    assertThat(due(4, Map.of(item, 8L))).containsExactly(new PendingHits.Due(item, 15, POLICY));
  }

  @Test
  void aHotItemIsSentEveryFlush() {
    for (int second = 0; second < 5; second++) {
      assertThat(due(second, Map.of(item, 100L)))
          .containsExactly(new PendingHits.Due(item, 100, POLICY));
    }
  }

  @Test
  void atMostAThousandItemsAFlushLargestFirstTheRestNextTime() {
    Map<QueueId, Long> counts = new HashMap<>();
    for (int i = 0; i < 1_200; i++) {
      counts.put(QueueId.of("shop", "i" + i), 20L + i);
    }

    List<PendingHits.Due> first = due(0, counts);
    List<PendingHits.Due> second = due(1, Map.of());

    assertThat(first).hasSize(PendingHits.MOST_SENT);
    assertThat(first.get(0).requests()).isEqualTo(1_219);
    assertThat(first.get(999).requests()).isEqualTo(220);
    assertThat(second).hasSize(200);
    assertThat(second.get(0).requests()).isEqualTo(219);
  }

  @Test
  void randomItemsRequestedOnceSendNothingAndKeepAtMostTheCapacityOfTheLargestCounts() {
    Map<QueueId, Long> counts = new HashMap<>();
    for (int i = 0; i < 100_000; i++) {
      counts.put(QueueId.of("shop", "random-" + i), 1L);
    }
    counts.put(item, 9L);

    assertThat(due(0, counts)).isEmpty();
    assertThat(pending.size()).isEqualTo(1_000);
    assertThat(due(1, Map.of(item, 6L))).containsExactly(new PendingHits.Due(item, 15, POLICY));
  }

  @Test
  void itemsOfRoomsThatDoNotTurnOnByTrafficOrAreUnknownAreDropped() {
    RoomPolicy never = RoomPolicy.DEFAULTS;
    Map<QueueId, Long> counts = Map.of(item, 1_000L, QueueId.of("gone", "1"), 1_000L);

    List<PendingHits.Due> sent =
        pending.due(counts, queue -> queue.room().equals("shop") ? never : null, 0);

    assertThat(sent).isEmpty();
    assertThat(pending.size()).isZero();
  }
}
