package io.anteroom.queue.policy;

import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Instants as operators write them: ISO-8601 with a zone offset, {@code 2026-12-24T18:00:00Z}. */
final class Instants {

  private Instants() {}

  /**
   * @throws IllegalArgumentException when the text is not such an instant
   */
  static Instant parse(String text) {
    try {
      return Instant.parse(text.trim());
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(
          "must be an ISO-8601 instant with an offset, e.g. 2026-12-24T18:00:00Z; was '"
              + text
              + "'");
    }
  }
}
