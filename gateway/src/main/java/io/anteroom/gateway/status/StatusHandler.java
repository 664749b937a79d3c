package io.anteroom.gateway.status;

import io.anteroom.gateway.activation.QueueGate;
import io.anteroom.gateway.filter.Line;
import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.gateway.pass.DirectEntry;
import io.anteroom.gateway.pass.Passes;
import io.anteroom.gateway.pass.Tickets;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.ClosedLine;
import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseCookie;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code GET /_anteroom/status?room=<room>}: where the holder of the room's ticket stands, as JSON;
 * one Redis round trip. When the visitor's turn has come it sets the pass cookie and answers {@code
 * admitted}, and the page reloads the URL it was opened at. Without a ticket, or when its place is
 * gone, it answers 404 {@code unknown}, and a page reloads to join the line.
 */
public final class StatusHandler {

  public static final String PATH = "/_anteroom/status";

  private final RoomPolicyMirror policies;
  private final QueueGate gate;
  private final TokenCodec tokens;
  private final AnteroomCookies cookies;
  private final Line line;
  private final DirectEntry direct;
  private final RoomShares shares;
  private final BiFunction<String, String, String> messages;
  private final Passes passes;
  private final Tickets tickets;

  /**
   * @param messages each room's operator message (or null) for a request's {@code Accept-Language}
   *     (room, header), added to the JSON of a visitor in line or of a closed room as {@code
   *     "message"}
   * @param passes gives the pass of a visitor whose turn has come
   * @param tickets renews the tickets of visitors who keep polling
   */
  public StatusHandler(
      RoomPolicyMirror policies,
      QueueGate gate,
      TokenCodec tokens,
      AnteroomCookies cookies,
      Line line,
      DirectEntry direct,
      RoomShares shares,
      BiFunction<String, String, String> messages,
      Passes passes,
      Tickets tickets) {
    this.policies = policies;
    this.gate = gate;
    this.tokens = tokens;
    this.cookies = cookies;
    this.line = line;
    this.direct = direct;
    this.shares = shares;
    this.messages = messages;
    this.passes = passes;
    this.tickets = tickets;
  }

  public Mono<ServerResponse> status(ServerRequest request) {
    String room = request.queryParam("room").orElse("");
    if (policies.policy(room) == null) {
      return json(HttpStatus.BAD_REQUEST, "{\"error\":\"unknown room\"}", List.of());
    }
    String token = cookies.ticket(request.exchange().getRequest(), room);
    Verified<Ticket> ticket = token == null ? null : tokens.readTicket(token, room);
    if (!(ticket instanceof Verified.Valid<Ticket> valid)) {
      return unknown();
    }
    Ticket held = valid.value();
    QueueId queue = held.queue();
    String visitor = held.visitor();
    Pass pass = currentPass(request, room);
    RoomPolicy policy = policies.policy(queue);
    if (tickets.outlived(held, policy)) {
      return unknown();
    }
    return switch (gate.verdict(queue, policy, pass != null)) {
      case ENTER ->
          direct
              .enter(queue, visitor, policy)
              .flatMap(
                  entered ->
                      entered
                          ? admitted(queue, visitor, pass, null, policy)
                          : inLine(room, held, pass, policy, language(request)))
              .onErrorResume(error -> lineUnavailable(policy));
      case CLOSED -> closed(queue, visitor, policy, language(request));
      case WAIT -> inLine(room, held, pass, policy, language(request));
      case UNAVAILABLE -> lineUnavailable(policy);
    };
  }

  /** Closed; with the place of a visitor in a line that is kept, whose poll counts. */
  private Mono<ServerResponse> closed(
      QueueId queue, String visitor, RoomPolicy policy, String language) {
    if (policy.closedLine() != ClosedLine.KEEP) {
      return json(
          HttpStatus.OK, withMessage(queue.room(), WaitingView.CLOSED, language), List.of());
    }
    return line.standing(queue, visitor)
        .onErrorReturn(Optional.empty())
        .flatMap(
            standing ->
                json(
                    HttpStatus.OK,
                    withMessage(
                        queue.room(),
                        standing
                            .map(
                                o ->
                                    WaitingView.of(o, policy, shares.configuredRate(queue, policy)))
                            .orElse(WaitingView.CLOSED),
                        language),
                    List.of()));
  }

  /**
   * Where the ticket's holder stands. When the place is gone, {@code unknown}: the page loads its
   * URL again, where the filter lets them join again past the room's defences.
   */
  private Mono<ServerResponse> inLine(
      String room, Ticket ticket, Pass pass, RoomPolicy policy, String language) {
    QueueId queue = ticket.queue();
    String visitor = ticket.visitor();
    return line.find(queue, ticket, policy)
        .flatMap(
            found -> {
              if (found.isEmpty()) {
                return unknown();
              }
              Line.Outcome outcome = found.get();
              if (outcome.admitted()) {
                return admitted(queue, visitor, pass, outcome.lastActivity(), policy);
              }
              gate.waiting(queue, policy, true, outcome.waiting());
              ResponseCookie renewed = tickets.renewal(ticket, policy);
              return json(
                  HttpStatus.OK,
                  withMessage(
                      room,
                      WaitingView.of(outcome, policy, shares.configuredRate(queue, policy)),
                      language),
                  renewed == null ? List.of() : List.of(renewed));
            })
        .onErrorResume(error -> lineUnavailable(policy));
  }

  private static Mono<ServerResponse> unknown() {
    return json(HttpStatus.NOT_FOUND, "{\"state\":\"unknown\"}", List.of());
  }

  /**
   * The line cannot be reached (Redis failed, or the breaker in front of it is open). A room that
   * fails open lets newcomers through, so a waiting page is told to load its URL again (where the
   * filter lets it through too); otherwise to ask again after Retry-After.
   */
  private static Mono<ServerResponse> lineUnavailable(RoomPolicy policy) {
    if (policy.failurePolicy() == FailurePolicy.OPEN) {
      return unknown();
    }
    long retryAfter = WaitingResponses.LINE_UNAVAILABLE_RETRY_AFTER_SECONDS;
    return ServerResponse.status(HttpStatus.SERVICE_UNAVAILABLE)
        .header(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter))
        .contentType(MediaType.APPLICATION_JSON)
        .cacheControl(CacheControl.noStore())
        .bodyValue(
            new WaitingView(WaitingView.State.UNAVAILABLE, 0, 0, 0, retryAfter, false).toJson());
  }

  /**
   * The pass for a visitor whose turn has come, and when its session ends unless they come back.
   *
   * @param lastActivity when Redis last recorded activity of the session, or null for now
   */
  private Mono<ServerResponse> admitted(
      QueueId queue, String visitor, Pass pass, Instant lastActivity, RoomPolicy policy) {
    Passes.Issued issued = passes.admitted(visitor, queue, pass, lastActivity, policy);
    return json(
        HttpStatus.OK,
        WaitingView.admittedJson(issued.at(), issued.firstEndsAt()),
        List.of(issued.cookie(), cookies.clearTicket(queue.room())));
  }

  private String withMessage(String room, WaitingView view, String acceptLanguage) {
    return WaitingResponses.withMessage(view.toJson(), messages.apply(room, acceptLanguage));
  }

  private static String language(ServerRequest request) {
    return request.headers().firstHeader(HttpHeaders.ACCEPT_LANGUAGE);
  }

  private Pass currentPass(ServerRequest request, String room) {
    String token = cookies.pass(request.exchange().getRequest(), room);
    return token != null && tokens.readPass(token, room) instanceof Verified.Valid<Pass> valid
        ? valid.value()
        : null;
  }

  private static Mono<ServerResponse> json(
      HttpStatus status, String body, List<ResponseCookie> set) {
    return ServerResponse.status(status)
        .contentType(MediaType.APPLICATION_JSON)
        .cacheControl(CacheControl.noStore())
        .cookies(c -> set.forEach(cookie -> c.add(cookie.getName(), cookie)))
        .bodyValue(body);
  }
}
