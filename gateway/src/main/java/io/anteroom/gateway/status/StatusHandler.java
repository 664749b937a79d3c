package io.anteroom.gateway.status;

import io.anteroom.gateway.line.Turn;
import io.anteroom.gateway.line.Turns;
import io.anteroom.gateway.line.Verdict;
import io.anteroom.gateway.line.Visit;
import io.anteroom.gateway.line.Visits;
import io.anteroom.gateway.line.WaitingView;
import io.anteroom.gateway.room.RoomPolicyMirror;
import io.anteroom.queue.policy.FailurePolicy;
import io.anteroom.queue.policy.RoomPolicy;
import java.util.List;
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
 * {@code GET /_anteroom/status?room=<room>}: where the holder of the room's ticket stands, as JSON:
 * the turn the filter would give them ({@link Turns#poll}), without taking a place. When the
 * visitor's turn has come it sets the pass cookie and answers {@code admitted}, and the page
 * reloads the URL it was opened at. Without a ticket, or when its place is gone, it answers 404
 * {@code unknown}, and a page reloads to join the line.
 */
public final class StatusHandler {

  public static final String PATH = "/_anteroom/status";

  private final RoomPolicyMirror policies;
  private final Visits visits;
  private final Turns turns;
  private final BiFunction<String, String, String> messages;

  /**
   * @param messages each room's operator message (or null) for a request's {@code Accept-Language}
   *     (room, header), added to the JSON of a visitor in line or of a closed room as {@code
   *     "message"}
   */
  public StatusHandler(
      RoomPolicyMirror policies,
      Visits visits,
      Turns turns,
      BiFunction<String, String, String> messages) {
    this.policies = policies;
    this.visits = visits;
    this.turns = turns;
    this.messages = messages;
  }

  public Mono<ServerResponse> status(ServerRequest request) {
    String room = request.queryParam("room").orElse("");
    if (policies.policy(room) == null) {
      return json(HttpStatus.BAD_REQUEST, "{\"error\":\"unknown room\"}", List.of());
    }
    return visits
        .poll(request.exchange().getRequest(), room)
        .map(visit -> turns.poll(visit).flatMap(turn -> answer(visit, turn, language(request))))
        .orElseGet(StatusHandler::unknown);
  }

  private Mono<ServerResponse> answer(Visit visit, Turn turn, String language) {
    Verdict verdict = turn.verdict();
    String room = visit.queue().room();
    if (verdict instanceof Verdict.Admit admit) {
      return json(
          HttpStatus.OK,
          WaitingView.admittedJson(admit.pass().at(), admit.pass().firstEndsAt()),
          turn.cookies());
    }
    if (verdict instanceof Verdict.Wait wait) {
      return json(HttpStatus.OK, withMessage(room, wait.view(), language), turn.cookies());
    }
    if (verdict instanceof Verdict.Closed closed) {
      WaitingView view = closed.keptPlace() == null ? WaitingView.CLOSED : closed.keptPlace();
      return json(HttpStatus.OK, withMessage(room, view, language), turn.cookies());
    }
    if (verdict instanceof Verdict.Unavailable) {
      return lineUnavailable(visit.policy());
    }
    // Gone; the rest (a challenge, a refusal, a write) come only to a visitor taking a place.
    return unknown();
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

  private String withMessage(String room, WaitingView view, String acceptLanguage) {
    return WaitingResponses.withMessage(view.toJson(), messages.apply(room, acceptLanguage));
  }

  private static String language(ServerRequest request) {
    return request.headers().firstHeader(HttpHeaders.ACCEPT_LANGUAGE);
  }

  private static Mono<ServerResponse> json(
      HttpStatus status, String body, List<ResponseCookie> set) {
    return ServerResponse.status(status)
        .contentType(MediaType.APPLICATION_JSON)
        .cacheControl(CacheControl.noStore())
        .cookies(c -> set.forEach(cookie -> c.set(cookie.getName(), cookie)))
        .bodyValue(body);
  }
}
