package io.anteroom.gateway.filter;

import io.anteroom.gateway.RedisGuard;
import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.gateway.pass.PassRegistrar;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Sends an allowed request on to the origin: scrubbed of Anteroom's headers and cookies, with a new
 * or renewed pass where one is due, and watching the origin's answer for the release header.
 */
final class Forwarder {

  /** An origin ends the visitor's session early by answering with this header set to true. */
  static final String RELEASE_HEADER = "Anteroom-Release";

  private final RequestScrubber scrubber;
  private final AnteroomCookies cookies;
  private final TokenCodec tokens;
  private final QueueStore store;
  private final RedisGuard redis;
  private final PassRegistrar registrar;
  private final LineEvents events;
  private final Clock clock;
  private final ThrottledWarnings warnings;

  Forwarder(
      RequestScrubber scrubber,
      AnteroomCookies cookies,
      TokenCodec tokens,
      QueueStore store,
      RedisGuard redis,
      PassRegistrar registrar,
      LineEvents events,
      Clock clock,
      ThrottledWarnings warnings) {
    this.scrubber = scrubber;
    this.cookies = cookies;
    this.tokens = tokens;
    this.store = store;
    this.redis = redis;
    this.registrar = registrar;
    this.events = events;
    this.clock = clock;
    this.warnings = warnings;
  }

  /** Forwards as it is, carrying {@code passToken} to the origin when configured. */
  Mono<Void> forward(ServerWebExchange exchange, GatewayFilterChain chain, String passToken) {
    return chain.filter(
        exchange.mutate().request(scrubber.scrub(exchange.getRequest(), passToken)).build());
  }

  /**
   * The request header that tells the origin a visitor came in unqueued because the line was down.
   */
  static final String DEGRADED_HEADER = "Anteroom-Degraded";

  /**
   * Forwards a visitor without a pass because the line could not be reached and the room fails
   * open; the origin sees {@value #DEGRADED_HEADER}{@code : line-unavailable}.
   */
  Mono<Void> forwardDegraded(ServerWebExchange exchange, GatewayFilterChain chain) {
    ServerHttpRequest request =
        scrubber
            .scrub(exchange.getRequest(), null)
            .mutate()
            .headers(h -> h.set(DEGRADED_HEADER, "line-unavailable"))
            .build();
    return chain.filter(exchange.mutate().request(request).build());
  }

  /**
   * Forwards a pass holder, renewing a pass past half its life (sliding session).
   *
   * @param current the pass as the request carries it
   */
  Mono<Void> forwardHolder(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      Pass pass,
      String current,
      RoomPolicy policy) {
    watchForRelease(exchange, queue, pass.visitor());
    if (!pass.pastHalfLife(clock.instant())) {
      return forward(exchange, chain, current);
    }
    return redis
        .call(store.touch(queue, pass.visitor()))
        .onErrorResume(error -> Mono.just(false))
        .flatMap(
            running -> {
              if (!running) {
                return forward(exchange, chain, current);
              }
              String renewed =
                  issue(exchange, queue, pass.visitor(), pass.items(), policy.sessionDuration());
              return forward(exchange, chain, renewed);
            });
  }

  /**
   * Forwards a visitor who gets a new pass now.
   *
   * @param lifetime how long the pass lasts: what is left of the visitor's session
   * @param admittedFromLine true when the line admitted the visitor (the ticket is cleared); false
   *     when the queue is off (the pass is registered in running, batched)
   */
  Mono<Void> forwardNewPass(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      String visitor,
      List<String> items,
      Duration lifetime,
      boolean admittedFromLine) {
    String token = issue(exchange, queue, visitor, items, lifetime);
    if (admittedFromLine) {
      exchange.getResponse().addCookie(cookies.clearTicket(queue.room()));
    } else {
      registrar.register(queue, visitor);
    }
    watchForRelease(exchange, queue, visitor);
    return forward(exchange, chain, token);
  }

  private String issue(
      ServerWebExchange exchange,
      QueueId queue,
      String visitor,
      List<String> items,
      Duration lifetime) {
    String token = tokens.issuePass(visitor, queue.room(), items, lifetime);
    exchange.getResponse().addCookie(cookies.pass(queue.room(), token, lifetime));
    return token;
  }

  /** When the origin answers with the release header: end the session and clear the pass. */
  private void watchForRelease(ServerWebExchange exchange, QueueId queue, String visitor) {
    ServerHttpResponse response = exchange.getResponse();
    response.beforeCommit(
        () -> {
          String release = response.getHeaders().getFirst(RELEASE_HEADER);
          if (release == null) {
            return Mono.empty();
          }
          response.getHeaders().remove(RELEASE_HEADER);
          if (!"true".equalsIgnoreCase(release.trim())) {
            return Mono.empty();
          }
          response.addCookie(cookies.clearPass(queue.room()));
          return redis
              .call(store.release(queue, visitor))
              .doOnNext(
                  released -> {
                    if (released) {
                      events.released(queue.room(), LineEvents.Releaser.ORIGIN);
                    }
                  })
              .onErrorResume(
                  error -> {
                    warnings.warn(
                        queue.toString(),
                        "room={} queue={} release failed: {}",
                        queue.room(),
                        queue.item(),
                        error.toString());
                    return Mono.just(false);
                  })
              .then();
        });
  }
}
