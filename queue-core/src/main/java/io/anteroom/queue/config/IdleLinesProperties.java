package io.anteroom.queue.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The bound on lines of queues that are off but keep keys in Redis, shared by gateways and workers
 * ({@link io.anteroom.queue.IdleLines}).
 *
 * @param perRoom most such lines of one room; beyond it the least recently written are deleted (a
 *     waiting visitor in one gives up the place, a running session stops counting against {@code
 *     max-active}); default 10000, about 10,000 × 5 keys
 */
@ConfigurationProperties("anteroom.idle-lines")
public record IdleLinesProperties(@DefaultValue("10000") int perRoom) {

  public IdleLinesProperties {
    if (perRoom < 1) {
      throw new IllegalArgumentException(
          "anteroom.idle-lines.per-room: must be at least 1, was " + perRoom);
    }
  }
}
