package io.anteroom.worker.admission;

import io.anteroom.queue.GatewayBeats;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Keeps an outage that only gateways see from costing people their places: while a gateway cannot
 * reach Redis (or its breaker refuses), polls through it do not arrive, and the line would give up
 * its visitors as abandoned although this worker reaches Redis all along. The gateways' beats
 * ({@link GatewayBeats}) are read at most once a {@link #READ}; times are this worker's own, taken
 * when it sees a beat change, so gateways' clocks do not matter.
 *
 * <p>A gateway whose beat has not changed for more than {@link #SILENT} is silent. While one is,
 * {@code abandon-after} is extended by the longest silence; once it beats again, by the length of
 * its silence until {@code abandon-after} has passed since, as {@link OutageCredit} does for this
 * worker's own outages. A gateway silent for {@link #GONE} is taken as gone (crashed, or scaled
 * away without removing its beat): its beat is removed and counts no more.
 */
final class GatewaySilence {

  private static final Logger log = LoggerFactory.getLogger(GatewaySilence.class);

  static final Duration READ = Duration.ofSeconds(1);
  static final Duration SILENT = Duration.ofSeconds(3);
  static final Duration GONE = Duration.ofMinutes(10);

  private final GatewayBeats beats;
  private final Clock clock;
  private final Map<String, Heard> heard = new HashMap<>();
  private long readAtMs = -1;
  private long silentMs;
  private long recoveredAtMs;
  private long recoveredSilenceMs;

  /** A gateway's last beat and when this worker saw it change. */
  private record Heard(String beat, long atMs) {}

  GatewaySilence(GatewayBeats beats, Clock clock) {
    this.beats = beats;
    this.clock = clock;
  }

  /** Reads the beats when due; completes empty, also when Redis fails (nothing learnt then). */
  Mono<Void> read() {
    synchronized (this) {
      if (readAtMs >= 0 && clock.millis() - readAtMs < READ.toMillis()) {
        return Mono.empty();
      }
      readAtMs = clock.millis();
    }
    return beats.read().flatMap(this::heard).onErrorResume(error -> Mono.empty());
  }

  /** Takes in one reading of the beats; removes those of gateways gone. */
  private Mono<Void> heard(Map<String, String> now) {
    List<String> gone = new ArrayList<>();
    synchronized (this) {
      long at = clock.millis();
      heard.keySet().retainAll(now.keySet());
      long longest = 0;
      for (Map.Entry<String, String> beat : now.entrySet()) {
        Heard before = heard.get(beat.getKey());
        if (before == null || !before.beat().equals(beat.getValue())) {
          if (before != null && at - before.atMs() > SILENT.toMillis()) {
            recovered(beat.getKey(), at, at - before.atMs());
          }
          heard.put(beat.getKey(), new Heard(beat.getValue(), at));
          continue;
        }
        long silence = at - before.atMs();
        if (silence >= GONE.toMillis()) {
          gone.add(beat.getKey());
          heard.remove(beat.getKey());
        } else if (silence > SILENT.toMillis()) {
          longest = Math.max(longest, silence);
        }
      }
      silentMs = longest;
    }
    return Flux.fromIterable(gone).flatMap(beats::remove).then();
  }

  private void recovered(String gateway, long at, long silence) {
    log.info(
        "Gateway {} beats again after {} ms; waiting visitors keep their places that much longer",
        gateway,
        silence);
    recoveredSilenceMs =
        at - recoveredAtMs < GONE.toMillis() ? Math.max(recoveredSilenceMs, silence) : silence;
    recoveredAtMs = at;
  }

  /**
   * How much longer than {@code policy}'s {@code abandon-after} places are kept now: the longest
   * silence of a gateway silent now, or of those that beat again since the last recovery less than
   * {@code abandon-after} ago.
   */
  synchronized long extraMs(RoomPolicy policy) {
    long recent =
        clock.millis() < recoveredAtMs + policy.abandonAfter().toMillis() ? recoveredSilenceMs : 0;
    return Math.max(silentMs, recent);
  }
}
