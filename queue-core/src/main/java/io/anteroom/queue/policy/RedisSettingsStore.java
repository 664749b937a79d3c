package io.anteroom.queue.policy;

import io.anteroom.queue.QueueKeys;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.Map;
import reactor.core.publisher.Mono;

/** {@link SettingsStore} in the hash {@link QueueKeys#settings(String)}. */
public final class RedisSettingsStore implements SettingsStore {

  private final RedisClusterAsyncCommands<String, String> commands;
  private final QueueKeys keys;

  public RedisSettingsStore(RedisClusterAsyncCommands<String, String> commands, QueueKeys keys) {
    this.commands = commands;
    this.keys = keys;
  }

  @Override
  public Mono<Map<String, String>> overrides(String room) {
    return Mono.fromCompletionStage(() -> commands.hgetall(keys.settings(room)));
  }

  @Override
  public Mono<Void> put(String room, Map<String, String> values) {
    if (values.isEmpty()) {
      return Mono.empty();
    }
    return Mono.fromCompletionStage(() -> commands.hset(keys.settings(room), values)).then();
  }
}
