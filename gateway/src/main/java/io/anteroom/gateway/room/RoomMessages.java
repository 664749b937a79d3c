package io.anteroom.gateway.room;

import io.anteroom.queue.QueueKeys;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Each room's live operator message ({@link QueueKeys#message(String)}), shown on every visitor
 * page of the room and in the JSON status. Requests read the copy held here, refreshed from Redis
 * periodically ({@link #refresh()}), so a page never waits on Redis for it; a failed read keeps the
 * last copy.
 */
public final class RoomMessages {

  /** The longest message, in characters. */
  public static final int MAX_LENGTH = 500;

  private static final Logger log = LoggerFactory.getLogger(RoomMessages.class);

  private final RedisClusterAsyncCommands<String, String> commands;
  private final QueueKeys keys;
  private final Set<String> rooms;
  private final Map<String, String> held = new ConcurrentHashMap<>();

  public RoomMessages(
      RedisClusterAsyncCommands<String, String> commands, QueueKeys keys, Set<String> rooms) {
    this.commands = commands;
    this.keys = keys;
    this.rooms = Set.copyOf(rooms);
  }

  /** The room's message as last read, or null when it has none. */
  public String message(String room) {
    return held.get(room);
  }

  /**
   * Stores the room's message, or removes it when {@code message} is null or blank; this gateway
   * shows it at once, the others after their next refresh.
   */
  public Mono<Void> set(String room, String message) {
    String key = keys.message(room);
    if (message == null || message.isBlank()) {
      return Mono.fromCompletionStage(() -> commands.del(key))
          .doOnSuccess(removed -> held.remove(room))
          .then();
    }
    String text = message.strip();
    if (text.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("at most " + MAX_LENGTH + " characters");
    }
    return Mono.fromCompletionStage(() -> commands.set(key, text))
        .doOnSuccess(ok -> held.put(room, text))
        .then();
  }

  /** Re-reads every room's message now. */
  public Mono<Void> refresh() {
    return Flux.fromIterable(rooms).flatMap(this::refresh).then();
  }

  private Mono<Void> refresh(String room) {
    return Mono.fromCompletionStage(() -> commands.get(keys.message(room)))
        .doOnNext(text -> held.put(room, shortened(text)))
        .switchIfEmpty(Mono.fromRunnable(() -> held.remove(room)))
        .then()
        .onErrorResume(
            error -> {
              log.debug("room={} message could not be read: {}", room, error.toString());
              return Mono.empty();
            });
  }

  /** A message written by hand past the limit is cut to it. */
  private static String shortened(String text) {
    return text.length() <= MAX_LENGTH ? text : text.substring(0, MAX_LENGTH);
  }
}
