package io.anteroom.gateway.admin;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One change made through the admin API, as the audit trail keeps it.
 *
 * @param id the stream entry's id, {@code <ms>-<n>} in Redis' time; null before it is stored
 * @param at when the gateway made the change, ISO-8601
 * @param who the name of the token it was made with
 * @param from the address the request came from
 * @param what the kind of change, such as {@code room-settings} or {@code release}
 * @param target the room ({@code shop}) or queue ({@code shop:42})
 * @param old the values before, such as {@code {admit-per-second=4}}
 * @param now the values after
 */
record AuditEntry(
    String id,
    String at,
    String who,
    String from,
    String what,
    String target,
    String old,
    String now) {

  /** The stream entry's fields, in the order the log line has them. */
  Map<String, String> fields() {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("at", at);
    fields.put("who", who);
    fields.put("from", from);
    fields.put("what", what);
    fields.put("target", target);
    fields.put("old", old);
    fields.put("new", now);
    return fields;
  }

  /** An entry read back from the stream; a missing field reads as empty. */
  static AuditEntry of(String id, Map<String, String> fields) {
    return new AuditEntry(
        id,
        fields.getOrDefault("at", ""),
        fields.getOrDefault("who", ""),
        fields.getOrDefault("from", ""),
        fields.getOrDefault("what", ""),
        fields.getOrDefault("target", ""),
        fields.getOrDefault("old", ""),
        fields.getOrDefault("new", ""));
  }

  /** {@code {"id", "at", "who", "from", "what", "target", "old", "new"}} for the API. */
  Map<String, String> view() {
    Map<String, String> view = new LinkedHashMap<>();
    view.put("id", id);
    view.putAll(fields());
    return view;
  }
}
