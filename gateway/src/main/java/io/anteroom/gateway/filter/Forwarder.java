package io.anteroom.gateway.filter;

import io.anteroom.gateway.RedisGuard;
import io.anteroom.gateway.line.LineEvents;
import io.anteroom.gateway.line.Verdict.Given;
import io.anteroom.gateway.origin.OriginMeters;
import io.anteroom.gateway.pass.Passes;
import io.anteroom.gateway.pass.SessionChecks;
import io.anteroom.gateway.token.Entitlement;
import io.anteroom.gateway.token.Pass;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.RoomPolicy;
import java.util.List;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.http.HttpMethod;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Sends an allowed request on to the origin: scrubbed of Anteroom's headers and cookies, with a new
 * or renewed pass where one is given, watching the origin's answer for the release header and, for
 * a visitor the line admitted lately, for a failure that sends them back to the front ({@link
 * Reentries}), and timing it ({@link OriginMeters}).
 */
final class Forwarder {

  /** An origin ends the visitor's session early by answering with this header set to true. */
  static final String RELEASE_HEADER = "Anteroom-Release";

  private final RequestScrubber scrubber;
  private final Passes passes;
  private final SessionChecks checks;
  private final QueueStore store;
  private final RedisGuard redis;
  private final LineEvents events;
  private final ThrottledWarnings warnings;
  private final OriginMeters origin;
  private final Reentries reentries;

  Forwarder(
      RequestScrubber scrubber,
      Passes passes,
      SessionChecks checks,
      QueueStore store,
      RedisGuard redis,
      LineEvents events,
      ThrottledWarnings warnings,
      OriginMeters origin,
      Reentries reentries) {
    this.scrubber = scrubber;
    this.passes = passes;
    this.checks = checks;
    this.store = store;
    this.redis = redis;
    this.events = events;
    this.warnings = warnings;
    this.origin = origin;
    this.reentries = reentries;
  }

  /** Forwards as it is, carrying {@code passToken} to the origin when configured. */
  Mono<Void> forward(
      ServerWebExchange exchange, GatewayFilterChain chain, String room, String passToken) {
    return forward(exchange, chain, room, passToken, null);
  }

  /**
   * @param sampled the visitor whose answer the auto-pilot samples, or null ({@link #sampled})
   */
  private Mono<Void> forward(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      String room,
      String passToken,
      String sampled) {
    scrubber.forward(exchange, passToken);
    return origin.timed(room, exchange, chain::filter, sampled);
  }

  /**
   * The visitor whose answer the auto-pilot samples: one the line admitted to the item (the pass
   * names the admission; a pass given while the queue was off names none) asking to read (GET,
   * HEAD). A write, or anyone let in without the line, says nothing the origin's readers meet.
   */
  private static String sampled(
      ServerWebExchange exchange, String visitor, Entitlement entitlement) {
    HttpMethod method = exchange.getRequest().getMethod();
    boolean reads = HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
    return reads && entitlement != null && entitlement.admitted() != null ? visitor : null;
  }

  /**
   * The request header that tells the origin a visitor came in unqueued because the line was down.
   */
  static final String DEGRADED_HEADER = "Anteroom-Degraded";

  /**
   * Forwards a visitor without a pass because the line could not be reached and the room fails
   * open; the origin sees {@value #DEGRADED_HEADER}{@code : line-unavailable}.
   */
  Mono<Void> forwardDegraded(ServerWebExchange exchange, GatewayFilterChain chain, String room) {
    scrubber.forwardDegraded(exchange);
    return origin.timed(room, exchange, chain::filter, null);
  }

  /**
   * Forwards a pass holder with the pass the request carries.
   *
   * @param current the pass as the request carries it
   */
  Mono<Void> forwardHolder(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Pass pass,
      String current) {
    watchForRelease(exchange, queue, policy, pass.visitor(), pass.entitlements());
    Mono<Void> forwarding =
        forward(
            exchange,
            chain,
            queue.room(),
            current,
            sampled(exchange, pass.visitor(), pass.entitlement(queue)));
    return reentries.watch(
        exchange, queue, pass.visitor(), pass.entitlements(), policy, forwarding);
  }

  /**
   * Forwards a visitor with a pass given now (its cookie set by the turn), as {@code given} says;
   * one given while the queue is off has no line to go back to.
   */
  Mono<Void> forwardWithPass(
      ServerWebExchange exchange,
      GatewayFilterChain chain,
      QueueId queue,
      RoomPolicy policy,
      Passes.Issued pass,
      Given given) {
    watchForRelease(exchange, queue, policy, pass.visitor(), pass.entitlements());
    String sampled =
        given == Given.QUEUE_OFF
            ? null
            : sampled(exchange, pass.visitor(), pass.entitlements().get(0));
    Mono<Void> forwarding = forward(exchange, chain, queue.room(), pass.token(), sampled);
    return given == Given.QUEUE_OFF
        ? forwarding
        : reentries.watch(exchange, queue, pass.visitor(), pass.entitlements(), policy, forwarding);
  }

  /**
   * When the origin answers with the release header: end the session, and take its item out of the
   * pass (other items stay open).
   */
  private void watchForRelease(
      ServerWebExchange exchange,
      QueueId queue,
      RoomPolicy policy,
      String visitor,
      List<Entitlement> entitlements) {
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
          ResponseCookie rest = passes.without(visitor, entitlements, queue);
          response.getCookies().set(rest.getName(), rest);
          checks.ended(queue, visitor, policy);
          return redis
              .call(store.release(queue, visitor, Pass.otherQueues(queue, entitlements)))
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
