package io.anteroom.testing.redis;

/** Redis answered a command with an error reply; the message is the reply, e.g. {@code ERR ...}. */
public final class RedisCommandException extends RuntimeException {

  RedisCommandException(String reply) {
    super(reply);
  }
}
