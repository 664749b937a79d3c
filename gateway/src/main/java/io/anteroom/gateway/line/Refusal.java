package io.anteroom.gateway.line;

/**
 * Why and for how long a new place is refused: answered 429 with Retry-After.
 *
 * @param reason which of the room's limits on new places refused it
 * @param retryAfterSeconds when asking again may succeed
 */
public record Refusal(Reason reason, long retryAfterSeconds) {

  /** Why a place was refused. */
  public enum Reason {
    /** The client address asked for more new places this minute than the room allows. */
    PLACES_PER_IP("too-many-new-places-from-address", "limited.placesPerIp"),
    /** The visitor already waits in as many of the room's lines as it allows. */
    QUEUES_PER_IDENTITY("too-many-queues-per-identity", "limited.queuesPerIdentity");

    private final String code;
    private final String textKey;

    Reason(String code, String textKey) {
      this.code = code;
      this.textKey = textKey;
    }

    /** The reason as the JSON contract and the limited page's data name it. */
    public String code() {
      return code;
    }

    /** The page text that says it. */
    public String textKey() {
      return textKey;
    }
  }
}
