package io.anteroom.queue.policy;

import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.Remembered;
import io.anteroom.queue.script.QueueScripts;
import io.anteroom.queue.script.ScriptRunner;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@link SettingsStore} in one hash per room, {@link QueueKeys#settings(String)}: a room override
 * is the field {@code <property>}, a queue override the field {@code <item>/<property>} (item ids
 * never contain {@code /}; a field whose item is not a valid item id, written by hand, is skipped).
 * One read gives a gateway or worker everything of a room. Every change moves the hash's
 * generation, field {@code .gen} (settings.lua), which readers leave out. What was read last of
 * each room is written back where missing when the store came back empty, and by generation when it
 * came back older ({@link Remembered}).
 */
public final class RedisSettingsStore implements SettingsStore, Remembered {

  private static final char ITEM_SEPARATOR = '/';

  private final RedisClusterAsyncCommands<String, String> commands;
  private final ScriptRunner scripts;
  private final QueueKeys keys;
  private final Map<String, Map<String, String>> lastRead = new ConcurrentHashMap<>();

  public RedisSettingsStore(RedisClusterAsyncCommands<String, String> commands, QueueKeys keys) {
    this.commands = commands;
    this.scripts = new ScriptRunner(commands);
    this.keys = keys;
  }

  @Override
  public Mono<Overrides> overrides(String room) {
    return Mono.fromCompletionStage(() -> commands.hgetall(keys.settings(room)))
        .doOnNext(fields -> lastRead.put(room, Map.copyOf(fields)))
        .map(RedisSettingsStore::split);
  }

  @Override
  public Mono<Void> writeBack() {
    return Flux.fromIterable(lastRead.entrySet())
        .filter(room -> !settings(room.getValue()).isEmpty())
        .flatMap(
            room ->
                scripts.run(
                    QueueScripts.REASSERT,
                    ScriptOutputType.INTEGER,
                    new String[] {keys.settings(room.getKey())},
                    pairs(settings(room.getValue()))))
        .then();
  }

  @Override
  public Mono<Void> restore() {
    return Flux.fromIterable(lastRead.entrySet())
        .filter(room -> room.getValue().containsKey(QueueKeys.GENERATION))
        .flatMap(
            room -> {
              String[] pairs = pairs(settings(room.getValue()));
              String[] args = new String[pairs.length + 1];
              args[0] = room.getValue().get(QueueKeys.GENERATION);
              System.arraycopy(pairs, 0, args, 1, pairs.length);
              return scripts.run(
                  QueueScripts.RESTORE,
                  ScriptOutputType.INTEGER,
                  new String[] {keys.settings(room.getKey())},
                  args);
            })
        .then();
  }

  @Override
  public Mono<Void> put(String room, String item, Map<String, String> values) {
    if (values.isEmpty()) {
      return Mono.empty();
    }
    return change(room, item, values, List.of());
  }

  @Override
  public Mono<Void> remove(String room, String item, Collection<String> properties) {
    if (properties.isEmpty()) {
      return Mono.empty();
    }
    return change(room, item, Map.of(), properties);
  }

  @Override
  public Mono<Void> change(
      String room, String item, Map<String, String> set, Collection<String> remove) {
    List<String> args = new ArrayList<>();
    args.add(Integer.toString(remove.size()));
    remove.forEach(property -> args.add(field(room, item, property)));
    set.forEach(
        (property, value) -> {
          args.add(field(room, item, property));
          args.add(value);
        });
    return scripts
        .run(
            QueueScripts.SETTINGS,
            ScriptOutputType.INTEGER,
            new String[] {keys.settings(room)},
            args.toArray(String[]::new))
        .then();
  }

  private static String field(String room, String item, String property) {
    return item == null ? property : QueueId.named(room, item).item() + ITEM_SEPARATOR + property;
  }

  /** The settings among a hash's fields: all but the hash's own ({@code .gen}). */
  private static Map<String, String> settings(Map<String, String> fields) {
    Map<String, String> settings = new LinkedHashMap<>(fields);
    settings.keySet().removeIf(QueueKeys::isStoreField);
    return settings;
  }

  private static String[] pairs(Map<String, String> fields) {
    return fields.entrySet().stream()
        .flatMap(field -> Stream.of(field.getKey(), field.getValue()))
        .toArray(String[]::new);
  }

  private static Overrides split(Map<String, String> hash) {
    Map<String, String> room = new HashMap<>();
    Map<String, Map<String, String>> queues = new HashMap<>();
    settings(hash)
        .forEach(
            (field, value) -> {
              int separator = field.indexOf(ITEM_SEPARATOR);
              if (separator < 0) {
                room.put(field, value);
              } else if (QueueId.isItem(field.substring(0, separator))) {
                queues
                    .computeIfAbsent(field.substring(0, separator), item -> new HashMap<>())
                    .put(field.substring(separator + 1), value);
              }
            });
    return new Overrides(room, queues);
  }
}
