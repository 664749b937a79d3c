package io.anteroom.queue;

import reactor.core.publisher.Mono;

/**
 * What a gateway or worker keeps of what it last read from Redis, to write back where missing when
 * the store came back empty ({@link RedisActiveQueues} finds that out).
 */
public interface Remembered {

  /** Writes back what was last read, only where it is missing now. */
  Mono<Void> writeBack();
}
