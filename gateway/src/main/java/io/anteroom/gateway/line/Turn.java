package io.anteroom.gateway.line;

import java.util.List;
import org.springframework.http.ResponseCookie;

/**
 * A visitor's turn: the verdict, and the cookies its answer sets (a ticket given or renewed, a pass
 * given, a pass without an item whose session ended, the ticket or the proof cleared), in the order
 * set: a later one replaces an earlier one of its name.
 */
public record Turn(Verdict verdict, List<ResponseCookie> cookies) {

  public Turn {
    cookies = List.copyOf(cookies);
  }
}
