package io.anteroom.queue;

import reactor.core.publisher.Mono;

/**
 * What a gateway or worker keeps of what it last read from Redis, to write back when the store came
 * back empty or older ({@link RedisActiveQueues} finds that out, {@link StoreRecovery} calls).
 */
public interface Remembered {

  /** The store came back empty: writes back what was last read, only where it is missing now. */
  Mono<Void> writeBack();

  /**
   * The store came back older: writes back what was last read as it was read, unless what is there
   * now was written later (by generation, restore.lua).
   */
  Mono<Void> restore();
}
