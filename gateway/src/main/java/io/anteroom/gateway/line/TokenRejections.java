package io.anteroom.gateway.line;

import io.anteroom.gateway.token.Rejection;

/** Where a turn counts each token it could not use, by room and reason. */
@FunctionalInterface
public interface TokenRejections {

  void rejected(String room, Rejection reason);
}
