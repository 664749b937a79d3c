package io.anteroom.gateway.filter;

import static org.springframework.cloud.gateway.support.ServerWebExchangeUtils.CLIENT_RESPONSE_ATTR;

import io.anteroom.gateway.RedisGuard;
import io.anteroom.gateway.line.LineEvents;
import io.anteroom.gateway.origin.Causes;
import io.anteroom.gateway.origin.Sending;
import io.anteroom.gateway.pass.Passes;
import io.anteroom.gateway.pass.SessionChecks;
import io.anteroom.gateway.pass.Tickets;
import io.anteroom.gateway.token.Entitlement;
import io.anteroom.gateway.token.Pass;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.QueueStore;
import io.anteroom.queue.Reentered;
import io.anteroom.queue.log.ThrottledWarnings;
import io.anteroom.queue.policy.RoomPolicy;
import java.net.ConnectException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.PrematureCloseException;

/**
 * Sends a pass holder whom the origin failed right after the line admitted them back to the front
 * of the line ({@link QueueStore#reenter}), instead of letting them lose their turn: when, within
 * the room's {@code reentry-grace} of the admission their pass names, the origin answers 502, 503
 * or 504, or cannot be reached or does not answer in time. The visitor's session ends, the pass
 * loses the item, a ticket for the place is set, and the answer becomes {@code 303 See Other} to
 * the same address, where the waiting page says they go first. When Redis says no (not running, or
 * sent back {@code reentry-max} times already) or cannot be asked, the origin's answer goes to the
 * visitor as it is.
 */
final class Reentries {

  private static final Logger log = LoggerFactory.getLogger(Reentries.class);

  private final QueueStore store;
  private final RedisGuard redis;
  private final Passes passes;
  private final Tickets tickets;
  private final SessionChecks checks;
  private final LineEvents events;
  private final ThrottledWarnings warnings;
  private final Clock clock;

  Reentries(
      QueueStore store,
      RedisGuard redis,
      Passes passes,
      Tickets tickets,
      SessionChecks checks,
      LineEvents events,
      ThrottledWarnings warnings,
      Clock clock) {
    this.store = store;
    this.redis = redis;
    this.passes = passes;
    this.tickets = tickets;
    this.checks = checks;
    this.events = events;
    this.warnings = warnings;
    this.clock = clock;
  }

  /**
   * A holder of {@code entitlements} for {@code queue}, whose request {@code forwarding} sends to
   * the origin: sent back to the front when the origin fails them within the grace. The watch on
   * the answer must be set after the origin's meters' (as {@code forwarding} was built), so they
   * count the origin's own status.
   *
   * @return {@code forwarding}, with a failure to reach the origin turned into the 303 when the
   *     visitor went back
   */
  Mono<Void> watch(
      ServerWebExchange exchange,
      QueueId queue,
      String visitor,
      List<Entitlement> entitlements,
      RoomPolicy policy,
      Mono<Void> forwarding) {
    Instant admitted = eligible(queue, entitlements, policy);
    if (admitted == null) {
      return forwarding;
    }
    Front front = new Front(exchange, queue, visitor, entitlements, admitted, policy);
    ServerHttpResponse response = exchange.getResponse();
    response.beforeCommit(
        () ->
            failed(response.getStatusCode()) && originsOwn(exchange, null)
                ? front.reenter().then()
                : Mono.empty());
    return forwarding.onErrorResume(
        error ->
            unreached(error) && originsOwn(exchange, error) && !response.isCommitted()
                ? front
                    .reenter()
                    .flatMap(back -> back ? response.setComplete() : Mono.<Void>error(error))
                : Mono.error(error));
  }

  /**
   * When the line admitted the holder to {@code queue}, if that was within the grace and re-entry
   * is on; otherwise null.
   */
  private Instant eligible(QueueId queue, List<Entitlement> entitlements, RoomPolicy policy) {
    if (!policy.reentry().on()) {
      return null;
    }
    for (Entitlement entitlement : entitlements) {
      if (entitlement.item().equals(queue.item())) {
        return entitlement.admittedWithin(clock.instant(), policy.reentry().grace())
            ? entitlement.admitted()
            : null;
      }
    }
    return null;
  }

  /**
   * Whether the failure is the origin's own: its answer (not one the gateway made up for want of
   * it), or a connection it refused, or no answer although it had the whole request at least as
   * long as the client took to send it ({@link Sending#originsOwn}). A client dripping its body
   * past the gateway's response timeout, or an origin answering a body too slow for it, does not
   * send anyone back.
   *
   * @param error the failure, or null for an answer with a failing status
   */
  private static boolean originsOwn(ServerWebExchange exchange, Throwable error) {
    Sending sending = Sending.of(exchange);
    if (sending == null) {
      return false;
    }
    if (error == null && exchange.getAttribute(CLIENT_RESPONSE_ATTR) == null) {
      return false;
    }
    return sending.originsOwn(error);
  }

  private static boolean failed(HttpStatusCode status) {
    return status != null
        && (status.value() == 502 || status.value() == 503 || status.value() == 504);
  }

  /**
   * Whether forwarding failed for want of an answer from the origin: no connection, no answer in
   * time, or the connection closed before the answer.
   */
  private static boolean unreached(Throwable error) {
    return Causes.any(
        error,
        cause ->
            cause instanceof ConnectException
                || cause instanceof TimeoutException
                || cause instanceof io.netty.handler.timeout.TimeoutException
                || cause instanceof PrematureCloseException
                || (cause instanceof ResponseStatusException status
                    && failed(status.getStatusCode())));
  }

  /** One failed request's way back to the front. */
  private final class Front {

    private final ServerWebExchange exchange;
    private final QueueId queue;
    private final String visitor;
    private final List<Entitlement> entitlements;
    private final Instant admitted;
    private final RoomPolicy policy;

    Front(
        ServerWebExchange exchange,
        QueueId queue,
        String visitor,
        List<Entitlement> entitlements,
        Instant admitted,
        RoomPolicy policy) {
      this.exchange = exchange;
      this.queue = queue;
      this.visitor = visitor;
      this.entitlements = entitlements;
      this.admitted = admitted;
      this.policy = policy;
    }

    /** Asks the line; true when the visitor has a place in it now, and the answer says so. */
    Mono<Boolean> reenter() {
      return redis
          .call(
              store.reenter(
                  queue, visitor, admitted, policy, Pass.otherQueues(queue, entitlements)))
          .map(this::answer)
          .onErrorResume(
              error -> {
                warnings.warn(
                    queue.toString(),
                    "room={} queue={} re-entry failed: {}",
                    queue.room(),
                    queue.item(),
                    error.toString());
                return Mono.just(false);
              });
    }

    private boolean answer(Reentered result) {
      if (result == Reentered.FRONT) {
        events.reentered(queue.room());
        log.info(
            "room={} queue={} visitor sent back to the front after the origin failed them",
            queue.room(),
            queue.item());
      }
      if (!result.waiting()) {
        return false;
      }
      checks.ended(queue, visitor, policy);
      ServerHttpResponse response = exchange.getResponse();
      ResponseCookie rest = passes.without(visitor, entitlements, queue);
      response.getCookies().set(rest.getName(), rest);
      ResponseCookie ticket = tickets.reentered(visitor, queue, admitted);
      response.getCookies().set(ticket.getName(), ticket);
      response.setStatusCode(HttpStatus.SEE_OTHER);
      HttpHeaders headers = response.getHeaders();
      headers.set(HttpHeaders.LOCATION, sameAddress(exchange.getRequest()));
      headers.setCacheControl("no-store");
      headers.remove(HttpHeaders.EXPIRES);
      headers.remove(HttpHeaders.ETAG);
      headers.remove(HttpHeaders.LAST_MODIFIED);
      return true;
    }
  }

  /**
   * The request's own path and query, as the visitor sent them; leading slashes collapsed, so the
   * path can never read as another host ({@code //elsewhere}).
   */
  static String sameAddress(ServerHttpRequest request) {
    String path = request.getURI().getRawPath();
    String query = request.getURI().getRawQuery();
    String single = "/" + (path == null ? "" : path.replaceFirst("^/+", ""));
    return query == null ? single : single + "?" + query;
  }
}
