package io.anteroom.gateway.line;

import io.anteroom.gateway.line.Verdict.Admit;
import io.anteroom.gateway.line.Verdict.Given;
import io.anteroom.gateway.pass.AnteroomCookies;
import io.anteroom.gateway.pass.Passes;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.ResponseCookie;
import reactor.core.publisher.Mono;

/**
 * One turn being taken ({@link Turns}): the visit as it stands, whether the turn may take a place
 * in line, and the cookies gathered on the way. Used by one request's chain only.
 */
final class Call {

  private final AnteroomCookies names;
  private final boolean takesPlace;
  private final List<ResponseCookie> cookies = new ArrayList<>();
  private Visit visit;

  Call(Visit visit, boolean takesPlace, AnteroomCookies names) {
    this.visit = visit;
    this.takesPlace = takesPlace;
    this.names = names;
  }

  Visit visit() {
    return visit;
  }

  /** The visit goes on as {@code next} (a pass whose item ended, say). */
  void visit(Visit next) {
    visit = next;
  }

  /**
   * Whether this turn may take a place for a visitor who has none: the filter's may; the status
   * endpoint's only reports one (a visitor whose place is gone loads the page again to join).
   */
  boolean takesPlace() {
    return takesPlace;
  }

  /** A cookie the answer sets; a later one of the same name replaces it. */
  void set(ResponseCookie cookie) {
    if (cookie != null) {
      cookies.add(cookie);
    }
  }

  Mono<Turn> answer(Verdict verdict) {
    return Mono.just(new Turn(verdict, cookies));
  }

  /** In with {@code pass}, given now; a visitor the line admitted leaves it with their ticket. */
  Mono<Turn> admit(Passes.Issued pass, Given given) {
    set(pass.cookie());
    if (given == Given.FROM_LINE) {
      set(names.clearTicket(visit.queue().room()));
    }
    return answer(new Admit(pass, given));
  }
}
