package io.anteroom.gateway.room;

import io.anteroom.queue.QueueKeys;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Each room's live operator message ({@link QueueKeys#message(String)}), shown on every visitor
 * page of the room and in the JSON status, and its wording in other languages ({@link
 * QueueKeys#messages(String)}): a visitor gets the message in their page's language when there is
 * one, else the room's message. Requests read the copy held here, refreshed from Redis periodically
 * ({@link #refresh()}), so a page never waits on Redis for it; a failed read keeps the last copy.
 */
public final class RoomMessages {

  /** The longest message, in characters. */
  public static final int MAX_LENGTH = 500;

  private static final Logger log = LoggerFactory.getLogger(RoomMessages.class);

  /** What is held for a room: the message, and its wording by language. */
  private record Held(String message, Map<String, String> byLanguage) {
    static final Held NONE = new Held(null, Map.of());
  }

  private final RedisClusterAsyncCommands<String, String> commands;
  private final QueueKeys keys;
  private final Set<String> rooms;
  private final Map<String, Held> held = new ConcurrentHashMap<>();

  public RoomMessages(
      RedisClusterAsyncCommands<String, String> commands, QueueKeys keys, Set<String> rooms) {
    this.commands = commands;
    this.keys = keys;
    this.rooms = Set.copyOf(rooms);
  }

  /** The room's message as last read (in its default language), or null when it has none. */
  public String message(String room) {
    return held.getOrDefault(room, Held.NONE).message();
  }

  /** The room's message in {@code language} as last read, else its message, else null. */
  public String message(String room, String language) {
    Held known = held.getOrDefault(room, Held.NONE);
    String translated = language == null ? null : known.byLanguage().get(language);
    return translated != null ? translated : known.message();
  }

  /** The room's message by language, besides its message; empty when it has none. */
  public Map<String, String> translations(String room) {
    return held.getOrDefault(room, Held.NONE).byLanguage();
  }

  /**
   * Stores the room's message, or removes it when {@code message} is null or blank; this gateway
   * shows it at once, the others after their next refresh.
   */
  public Mono<Void> set(String room, String message) {
    return set(room, null, message);
  }

  /**
   * Stores the room's message in {@code language} (null: the room's message), or removes it when
   * {@code message} is null or blank.
   */
  public Mono<Void> set(String room, String language, String message) {
    String text = message == null ? "" : message.strip();
    if (text.length() > MAX_LENGTH) {
      throw new IllegalArgumentException("at most " + MAX_LENGTH + " characters");
    }
    Mono<?> write;
    if (language == null) {
      String key = keys.message(room);
      write =
          Mono.fromCompletionStage(
              () -> text.isEmpty() ? commands.del(key) : commands.set(key, text));
    } else {
      String key = keys.messages(room);
      write =
          Mono.fromCompletionStage(
              () ->
                  text.isEmpty()
                      ? commands.hdel(key, language)
                      : commands.hset(key, language, text));
    }
    return write.then(
        Mono.fromRunnable(
            () -> held.compute(room, (r, before) -> changed(before, language, text))));
  }

  private static Held changed(Held before, String language, String text) {
    Held held = before == null ? Held.NONE : before;
    String value = text.isEmpty() ? null : text;
    if (language == null) {
      return new Held(value, held.byLanguage());
    }
    Map<String, String> byLanguage = new HashMap<>(held.byLanguage());
    if (value == null) {
      byLanguage.remove(language);
    } else {
      byLanguage.put(language, value);
    }
    return new Held(held.message(), Map.copyOf(byLanguage));
  }

  /** Re-reads every room's message now. */
  public Mono<Void> refresh() {
    return Flux.fromIterable(rooms).flatMap(this::refresh).then();
  }

  private Mono<Void> refresh(String room) {
    Mono<String> message =
        Mono.fromCompletionStage(() -> commands.get(keys.message(room))).defaultIfEmpty("");
    Mono<Map<String, String>> byLanguage =
        Mono.fromCompletionStage(() -> commands.hgetall(keys.messages(room)))
            .defaultIfEmpty(Map.of());
    return Mono.zip(message, byLanguage)
        .doOnNext(
            read -> {
              Map<String, String> shortened = new HashMap<>();
              read.getT2().forEach((language, text) -> shortened.put(language, shortened(text)));
              String text = read.getT1().isEmpty() ? null : shortened(read.getT1());
              held.put(room, new Held(text, Map.copyOf(shortened)));
            })
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
