package io.anteroom.queue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * One line of people: a room and the item it queues for. Both parts are safe to put into a Redis
 * key: room names are validated, and item ids outside a small charset or too long are replaced by a
 * deterministic hash, so request values never reach a key raw.
 *
 * @param room the configured room name
 * @param item the item key: a safe raw id, a hash prefixed with {@value #HASH_PREFIX}, or {@link
 *     #ROOM_WIDE}
 */
public record QueueId(String room, String item) {

  /** The item of a room that queues everyone in one line. */
  public static final String ROOM_WIDE = "_";

  /** Marks an item that was hashed; it is outside the raw charset, so no raw id can collide. */
  static final String HASH_PREFIX = "~";

  private static final Pattern ROOM = Pattern.compile("[a-z0-9][a-z0-9-]{0,47}");
  private static final Pattern RAW_ITEM = Pattern.compile("[A-Za-z0-9._-]{1,64}");
  private static final Pattern ITEM = Pattern.compile("[A-Za-z0-9._-]{1,64}|~[0-9a-f]{32}");

  public QueueId {
    requireRoom(room);
    if (item == null || !ITEM.matcher(item).matches()) {
      throw new IllegalArgumentException("not a normalised item id: " + item);
    }
  }

  /** The queue of {@code room} for a raw item id taken from a request. */
  public static QueueId of(String room, String rawItem) {
    return new QueueId(room, normaliseItem(rawItem));
  }

  /**
   * The queue an operator names: an item id as listed (already normalised, such as a hashed {@code
   * ~…} id) is kept, anything else is normalised as a request's item would be.
   */
  public static QueueId named(String room, String item) {
    return item != null && ITEM.matcher(item).matches() ? new QueueId(room, item) : of(room, item);
  }

  /** Whether {@code item} is a normalised item id, as queue ids hold them. */
  public static boolean isItem(String item) {
    return item != null && ITEM.matcher(item).matches();
  }

  /** The room-wide queue of {@code room}. */
  public static QueueId roomWide(String room) {
    return new QueueId(room, ROOM_WIDE);
  }

  /** Parses the {@code room:item} form produced by {@link #toString()}. */
  public static QueueId parse(String id) {
    int colon = id.indexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("not a queue id: " + id);
    }
    return new QueueId(id.substring(0, colon), id.substring(colon + 1));
  }

  /** Throws when {@code room} is not a valid room name (lower-case letters, digits, dashes). */
  public static String requireRoom(String room) {
    if (room == null || !ROOM.matcher(room).matches()) {
      throw new IllegalArgumentException(
          "room name must be 1-48 lower-case letters, digits or dashes: " + room);
    }
    return room;
  }

  /** Keeps a safe id as it is and hashes anything else (SHA-256, first 128 bits, hex). */
  static String normaliseItem(String rawItem) {
    if (rawItem == null || rawItem.isEmpty()) {
      throw new IllegalArgumentException("item id is empty");
    }
    if (RAW_ITEM.matcher(rawItem).matches()) {
      return rawItem;
    }
    byte[] digest = sha256().digest(rawItem.getBytes(StandardCharsets.UTF_8));
    return HASH_PREFIX + HexFormat.of().formatHex(digest, 0, 16);
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }

  @Override
  public String toString() {
    return room + ":" + item;
  }
}
