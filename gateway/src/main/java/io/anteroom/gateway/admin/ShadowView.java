package io.anteroom.gateway.admin;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.shadow.ShadowLines;
import io.anteroom.queue.shadow.WaitQuantiles;
import java.util.LinkedHashMap;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * What the virtual line of a queue in shadow mode shows: how many would be waiting and inside now,
 * how many it admitted, and the median and 90th percentile of its last waits (seconds), with how
 * many waits those are over. Two reads: the line's counts and its list of waits.
 */
final class ShadowView {

  private ShadowView() {}

  static Mono<Map<String, Object>> of(ShadowLines lines, QueueId queue) {
    return Mono.zip(lines.store().counts(queue), lines.waits(queue))
        .map(
            read -> {
              WaitQuantiles waits = read.getT2();
              Map<String, Object> view = new LinkedHashMap<>();
              view.put("waiting", read.getT1().waiting());
              view.put("active", read.getT1().running());
              view.put("admitted", read.getT1().admitted());
              view.put("wait-p50-seconds", seconds(waits.p50().toMillis()));
              view.put("wait-p90-seconds", seconds(waits.p90().toMillis()));
              view.put("waits", waits.count());
              return view;
            });
  }

  private static String seconds(long millis) {
    return PolicyView.number(millis / 1000.0);
  }
}
