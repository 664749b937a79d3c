package io.anteroom.gateway.line;

import io.anteroom.gateway.pass.Passes;
import io.anteroom.gateway.token.Pass;

/**
 * What a visitor's turn came to ({@link Turns}), for the filter to answer as a forward or a page
 * and the status endpoint as JSON.
 */
public sealed interface Verdict {

  /** In, with the pass the request carries: checked locally, or confirmed without a new one. */
  record Hold(Pass pass, String token) implements Verdict {}

  /** In, with a pass given now. */
  record Admit(Passes.Issued pass, Given given) implements Verdict {}

  /** Why a visitor is given a pass now. */
  enum Given {
    /** The session was confirmed in Redis: the pass is renewed. */
    RENEWED,
    /** The line admitted the visitor: a failure of the origin right after sends them back. */
    FROM_LINE,
    /** The queue is off: the pass was counted on the way in, and there is no line to go back to. */
    QUEUE_OFF
  }

  /** In line: the waiting page, or its JSON. */
  record Wait(WaitingView view) implements Verdict {}

  /**
   * Closed: the closed page; or, for someone in a line a closed queue keeps ({@code keptPlace} not
   * null), the waiting page saying it is closed for now.
   */
  record Closed(WaitingView keptPlace) implements Verdict {}

  /** A newcomer of a room that asks for proof of work: solve this first. */
  record Challenge(String challenge, int difficulty) implements Verdict {}

  /** A new place refused by one of the room's limits on new places. */
  record Refused(Refusal refusal) implements Verdict {}

  /** A write (not {@code GET} or {@code HEAD}) to a queue that holds visitors: it cannot wait. */
  record CannotWait() implements Verdict {}

  /** No place to look up (the status endpoint never takes one): load the protected URL again. */
  record Gone() implements Verdict {}

  /** The line cannot be reached: the room's failure policy answers. */
  record Unavailable() implements Verdict {}
}
