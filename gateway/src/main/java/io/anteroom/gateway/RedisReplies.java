package io.anteroom.gateway;

import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Hands Redis replies over from Lettuce's I/O threads before a response is written; every handler
 * that answers after a Redis call goes through here. A response completed on Lettuce's event loop
 * sometimes left the visitor's keep-alive connection without an answer to its next request (after
 * some dozens to hundreds of requests on one connection; {@code KeepAliveIntegrationTests}
 * reproduces it), while the same response completed on Reactor's parallel scheduler never did. The
 * hop costs a task submission.
 */
public final class RedisReplies {

  private static final Scheduler RESPONSES = Schedulers.parallel();

  private RedisReplies() {}

  /** {@code reply}, signalled on Reactor's parallel scheduler. */
  public static <T> Mono<T> handOff(Mono<T> reply) {
    return reply.publishOn(RESPONSES);
  }
}
