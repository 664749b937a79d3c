package io.anteroom.queue.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;

/**
 * The client options every mode shares, set for a waiting room's hot path: commands fail fast
 * instead of piling up while Redis is away (rejected while disconnected, bounded queue, a timeout
 * on each command), and connections heal by themselves when Redis comes back.
 */
final class ClientHardening {

  private ClientHardening() {}

  /** Applies the shared options to {@code builder}, a plain or a Cluster options builder. */
  static <B extends ClientOptions.Builder> B apply(B builder, RedisProperties properties) {
    builder
        .autoReconnect(true)
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .requestQueueSize(properties.requestQueueSize())
        .timeoutOptions(TimeoutOptions.enabled(properties.commandTimeout()))
        .socketOptions(
            SocketOptions.builder()
                .connectTimeout(properties.connectTimeout())
                .keepAlive(true)
                .build());
    return builder;
  }
}
