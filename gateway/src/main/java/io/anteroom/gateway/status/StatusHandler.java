package io.anteroom.gateway.status;

import io.anteroom.gateway.activation.QueueGate;
import io.anteroom.gateway.filter.Line;
import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.gateway.pass.PassRegistrar;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.Ticket;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.ClosedLine;
import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
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
 * admitted}, and the page reloads the URL it was opened at. Without a ticket it answers 404 {@code
 * unknown}, and a page reloads to join the line.
 */
public final class StatusHandler {

  public static final String PATH = "/_anteroom/status";

  private final RoomPolicyMirror policies;
  private final QueueGate gate;
  private final TokenCodec tokens;
  private final AnteroomCookies cookies;
  private final Line line;
  private final PassRegistrar registrar;
  private final Function<String, String> messages;
  private final Clock clock;

  /**
   * @param messages each room's operator message (or null), added to the JSON of a visitor in line
   *     or of a closed room as {@code "message"}
   * @param clock the time a pass picked up after admission is measured from
   */
  public StatusHandler(
      RoomPolicyMirror policies,
      QueueGate gate,
      TokenCodec tokens,
      AnteroomCookies cookies,
      Line line,
      PassRegistrar registrar,
      Function<String, String> messages,
      Clock clock) {
    this.policies = policies;
    this.gate = gate;
    this.tokens = tokens;
    this.cookies = cookies;
    this.line = line;
    this.registrar = registrar;
    this.messages = messages;
    this.clock = clock;
  }

  public Mono<ServerResponse> status(ServerRequest request) {
    String room = request.queryParam("room").orElse("");
    if (policies.policy(room) == null) {
      return json(HttpStatus.BAD_REQUEST, "{\"error\":\"unknown room\"}", List.of());
    }
    String token = cookies.ticket(request.exchange().getRequest(), room);
    Verified<Ticket> ticket = token == null ? null : tokens.readTicket(token, room);
    if (!(ticket instanceof Verified.Valid<Ticket> valid)) {
      return json(HttpStatus.NOT_FOUND, "{\"state\":\"unknown\"}", List.of());
    }
    Ticket held = valid.value();
    QueueId queue = held.queue();
    String visitor = held.visitor();
    Pass pass = currentPass(request, room);
    RoomPolicy policy = policies.policy(queue);
    return switch (gate.verdict(queue, policy)) {
      case ENTER -> {
        registrar.register(queue, visitor);
        yield admitted(room, queue, visitor, pass, policy.sessionDuration());
      }
      case CLOSED -> closed(queue, visitor, policy);
      case WAIT -> inLine(room, held, pass, policy);
      case UNAVAILABLE -> lineUnavailable(policy);
    };
  }

  /** Closed; with the place of a visitor in a line that is kept, whose poll counts. */
  private Mono<ServerResponse> closed(QueueId queue, String visitor, RoomPolicy policy) {
    if (policy.closedLine() != ClosedLine.KEEP) {
      return json(HttpStatus.OK, withMessage(queue.room(), WaitingView.CLOSED), List.of());
    }
    return line.standing(queue, visitor)
        .onErrorReturn(Optional.empty())
        .flatMap(
            standing ->
                json(
                    HttpStatus.OK,
                    withMessage(
                        queue.room(),
                        standing.map(o -> WaitingView.of(o, policy)).orElse(WaitingView.CLOSED)),
                    List.of()));
  }

  private Mono<ServerResponse> inLine(String room, Ticket ticket, Pass pass, RoomPolicy policy) {
    QueueId queue = ticket.queue();
    String visitor = ticket.visitor();
    return line.meet(queue, ticket, visitor, false, policy)
        .flatMap(
            outcome -> {
              if (outcome.admitted()) {
                Duration lifetime = outcome.passLifetime(policy.sessionDuration(), clock.instant());
                return admitted(room, queue, visitor, pass, lifetime);
              }
              gate.waiting(queue, policy, true, outcome.waiting());
              List<ResponseCookie> set =
                  outcome.joined()
                      ? List.of(cookies.ticket(room, tokens.issueTicket(visitor, queue)))
                      : List.of();
              return json(HttpStatus.OK, withMessage(room, WaitingView.of(outcome, policy)), set);
            })
        .onErrorResume(error -> lineUnavailable(policy));
  }

  /**
   * The line cannot be reached (Redis failed, or the breaker in front of it is open). A room that
   * fails open lets newcomers through, so a waiting page is told to load its URL again (where the
   * filter lets it through too); otherwise to ask again after Retry-After.
   */
  private static Mono<ServerResponse> lineUnavailable(RoomPolicy policy) {
    if (policy.failurePolicy() == FailurePolicy.OPEN) {
      return json(HttpStatus.NOT_FOUND, "{\"state\":\"unknown\"}", List.of());
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
   * @param lifetime how long the pass lasts: what is left of the session that began at admission
   */
  private Mono<ServerResponse> admitted(
      String room, QueueId queue, String visitor, Pass pass, Duration lifetime) {
    Pass current = pass != null && pass.visitor().equals(visitor) ? pass : null;
    String token = tokens.issuePass(visitor, room, Line.itemsAfter(current, queue), lifetime);
    WaitingView view = new WaitingView(WaitingView.State.ADMITTED, 0, 0, 0, 0, false);
    return json(
        HttpStatus.OK,
        view.toJson(),
        List.of(cookies.pass(room, token, lifetime), cookies.clearTicket(room)));
  }

  private String withMessage(String room, WaitingView view) {
    return WaitingResponses.withMessage(view.toJson(), messages.apply(room));
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
