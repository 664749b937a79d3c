package io.anteroom.worker;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The worker's own settings.
 *
 * @param tick how often the worker admits and expires for every active queue; default 250ms
 * @param queueConcurrency most queues worked on at once within one tick; default 32
 * @param metricQueuesPerRoom most queues of a room with gauge series of their own (the longest
 *     lines); the others are summed as {@code queue="_other"}; default 20
 */
@ConfigurationProperties("anteroom.worker")
public record WorkerProperties(
    @DefaultValue("250ms") Duration tick,
    @DefaultValue("32") int queueConcurrency,
    @DefaultValue("20") int metricQueuesPerRoom) {

  public WorkerProperties {
    if (tick.isZero()) {
      throw new IllegalArgumentException("anteroom.worker.tick: must be above 0");
    }
    if (queueConcurrency < 1) {
      throw new IllegalArgumentException(
          "anteroom.worker.queue-concurrency: must be at least 1, was " + queueConcurrency);
    }
    if (metricQueuesPerRoom < 0) {
      throw new IllegalArgumentException(
          "anteroom.worker.metric-queues-per-room: must not be negative, was "
              + metricQueuesPerRoom);
    }
  }
}
