package io.anteroom.queue;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * The gateways' sign of life in Redis ({@link QueueKeys#gateways()}): every gateway raises a count
 * of its own each second, and removes it when it stops. A worker that still reaches Redis while a
 * gateway's count stands still knows that gateway cannot, so visitors' polls through it are not
 * arriving, and holds back giving up their places for it.
 */
public final class GatewayBeats {

  private final RedisClusterAsyncCommands<String, String> commands;
  private final QueueKeys keys;

  public GatewayBeats(RedisClusterAsyncCommands<String, String> commands, QueueKeys keys) {
    this.commands = commands;
    this.keys = keys;
  }

  /** Writes {@code count} as the beat of {@code gateway}. */
  public Mono<Void> beat(String gateway, long count) {
    return Mono.fromCompletionStage(
            () -> commands.hset(keys.gateways(), gateway, Long.toString(count)))
        .then();
  }

  /** Removes the beat of {@code gateway}: it stopped, or has been silent too long to count. */
  public Mono<Void> remove(String gateway) {
    return Mono.fromCompletionStage(() -> commands.hdel(keys.gateways(), gateway)).then();
  }

  /** Every gateway's last beat, by instance id. */
  public Mono<Map<String, String>> read() {
    return Mono.fromCompletionStage(() -> commands.hgetall(keys.gateways()));
  }
}
