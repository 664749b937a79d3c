package io.anteroom.worker.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.AdmitResult;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.RoomAdmitResult;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.time.MutableClock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** How a window of a room's many queues is chosen, from what the calls before read. */
class RoomWindowsTests {

  final MutableClock clock = MutableClock.startingAt2026();
  final RoomWindows windows = new RoomWindows(clock);
  final Map<QueueId, RoomPolicy> queues = new LinkedHashMap<>();

  RoomWindowsTests() {
    IntStream.range(0, 40)
        .forEach(i -> queues.put(QueueId.of("drop", "q" + i), RoomPolicy.DEFAULTS));
  }

  static QueueId q(int i) {
    return QueueId.of("drop", "q" + i);
  }

  /** A call across {@code window} that read each queue with {@code waiting} and a pass. */
  void read(Map<QueueId, RoomPolicy> window, long waiting, double pass) {
    Map<QueueId, AdmitResult> results = new LinkedHashMap<>();
    Map<QueueId, Double> passes = new LinkedHashMap<>();
    window.keySet().forEach(queue -> results.put(queue, new AdmitResult(0, 0, waiting, 0)));
    window.keySet().forEach(queue -> passes.put(queue, pass));
    windows.read("drop", window, new RoomAdmitResult(0, 0, false, 0, results, passes));
  }

  @Test
  void onlyARoomWithMoreQueuesThanAWindowNeedsWindows() {
    Map<QueueId, RoomPolicy> few = new LinkedHashMap<>();
    IntStream.range(0, RoomWindows.SIZE).forEach(i -> few.put(q(i), RoomPolicy.DEFAULTS));
    assertThat(RoomWindows.needed(few)).isFalse();
    assertThat(RoomWindows.needed(queues)).isTrue();
  }

  @Test
  void aTickLooksAtEachQueueOnceAWindowAtATime() {
    windows.tick("drop", queues);
    int seen = 0;
    for (Map<QueueId, RoomPolicy> w = windows.next("drop", queues);
        !w.isEmpty();
        w = windows.next("drop", queues)) {
      assertThat(w).hasSizeLessThanOrEqualTo(RoomWindows.SIZE);
      read(w, 1, 0);
      seen += w.size();
    }
    assertThat(seen).isEqualTo(queues.size());
  }

  @Test
  void theLowestPassesWithPeopleWaitingComeFirstAndQueuesReadEmptyWaitTheirNextReading() {
    windows.tick("drop", queues);
    for (int i = 0; i < 40; i++) {
      Map<QueueId, RoomPolicy> one = Map.of(q(i), RoomPolicy.DEFAULTS);
      read(one, i < 20 ? 0 : 5, 100 - i);
    }
    windows.tick("drop", queues);

    Map<QueueId, RoomPolicy> first = windows.next("drop", queues);

    assertThat(first.keySet())
        .as("q39 has the lowest pass; q0-q19 were read empty just now")
        .containsExactlyElementsOf(IntStream.range(0, 16).mapToObj(i -> q(39 - i)).toList());
    assertThat(windows.roomPass("drop")).isEqualTo(61);

    clock.advance(RoomWork.CHECK.plus(Duration.ofMillis(1)));
    windows.tick("drop", queues);
    java.util.List<QueueId> looked = new java.util.ArrayList<>();
    for (Map<QueueId, RoomPolicy> w = windows.next("drop", queues);
        !w.isEmpty();
        w = windows.next("drop", queues)) {
      looked.addAll(w.keySet());
      read(w, 5, 200);
    }
    assertThat(looked)
        .as("read empty a check ago: looked at again, after the lower passes")
        .hasSize(40)
        .startsWith(q(39))
        .contains(q(0), q(19));
  }
}
