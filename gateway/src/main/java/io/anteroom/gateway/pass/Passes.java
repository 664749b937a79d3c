package io.anteroom.gateway.pass;

import io.anteroom.gateway.token.Entitlement;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.queue.QueueId;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.queue.policy.SessionScope;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.springframework.http.ResponseCookie;

/**
 * What a visitor's pass opens and for how long. An item's entitlement ends {@link
 * RoomPolicy#sessionIdleLimit()} after Redis last confirmed the visitor's session in its queue,
 * which is when the worker ends that session unless activity is confirmed again; it is carried from
 * pass to pass unchanged, so a pass given for another item never lengthens it: an origin that
 * checks passes itself trusts each item's end, which only Redis's word on that item moves. In a
 * room of {@link SessionScope#ROOM} too: activity elsewhere keeps the item's session running in
 * Redis, and once its end here has passed, the holder's next request to it finds the session
 * running (one Redis call through the line) and is let in again at once.
 */
public final class Passes {

  /** The shortest pass given: a visitor whose session is about to end still gets in once. */
  private static final Duration SHORTEST = Duration.ofSeconds(1);

  /**
   * A pass as a token and as the cookie that carries it.
   *
   * @param visitor the visitor it is for
   * @param entitlements what it opens
   * @param token the signed pass
   * @param cookie the pass cookie, living as long as the pass
   * @param at when it was issued
   */
  public record Issued(
      String visitor,
      List<Entitlement> entitlements,
      String token,
      ResponseCookie cookie,
      Instant at) {

    /**
     * The end of the first entitlement, the one the pass was given for: a visitor who has not used
     * the pass by then has lost the session, and their place with it.
     */
    public Instant firstEndsAt() {
      return entitlements.get(0).until();
    }
  }

  private final TokenCodec tokens;
  private final AnteroomCookies cookies;
  private final Clock clock;

  public Passes(TokenCodec tokens, AnteroomCookies cookies, Clock clock) {
    this.tokens = tokens;
    this.cookies = cookies;
    this.clock = clock;
  }

  /**
   * A pass for {@code visitor}, found in {@code queue}'s running sessions by the line: that item
   * first, admitted when Redis says the line let them in (its holder goes back to the front when
   * the origin fails them within {@link RoomPolicy#reentry()}'s grace of it), then the items {@code
   * current} still opens, as they were. A ticket holder found running again is given the same
   * admission, never the moment they were found nor their last activity: keeping a ticket cannot
   * stretch the grace. One running on a pass given while the queue was off gets none: the line did
   * not let them in.
   *
   * @param current the visitor's pass, or null; ignored when it belongs to another visitor
   * @param lastActivity when Redis last recorded the session's activity; null when this very call
   *     admitted them, now
   * @param admission when the line let them in, as Redis holds it; null when it did not
   */
  public Issued admitted(
      String visitor,
      QueueId queue,
      Pass current,
      Instant lastActivity,
      Instant admission,
      RoomPolicy policy) {
    return issue(visitor, queue, current, lastActivity, admission, policy);
  }

  /**
   * {@link #admitted} for a visitor let into {@code queue} while it is off: there is no line to go
   * back to, so the item says no admission.
   */
  public Issued direct(String visitor, QueueId queue, Pass current, RoomPolicy policy) {
    return issue(visitor, queue, current, null, null, policy);
  }

  /**
   * {@code pass} with the entitlement for {@code queue} renewed from a confirmation at {@code at},
   * keeping when the line admitted its holder.
   */
  public Issued renewed(Pass pass, QueueId queue, Instant at, RoomPolicy policy) {
    Entitlement kept = pass.entitlement(queue);
    return issue(pass.visitor(), queue, pass, at, kept == null ? null : kept.admitted(), policy);
  }

  private Issued issue(
      String visitor,
      QueueId queue,
      Pass current,
      Instant lastActivity,
      Instant admitted,
      RoomPolicy policy) {
    Instant now = clock.instant();
    Instant confirmed = lastActivity == null || lastActivity.isAfter(now) ? now : lastActivity;
    Instant until = confirmed.plus(policy.sessionIdleLimit());
    if (until.isBefore(now.plus(SHORTEST))) {
      until = now.plus(SHORTEST);
    }
    List<Entitlement> entitlements = new ArrayList<>();
    entitlements.add(new Entitlement(queue.item(), until, confirmed, admitted));
    if (current != null && current.visitor().equals(visitor)) {
      entitlements.addAll(current.othersOpenAt(queue.item(), now));
    }
    return issue(visitor, queue.room(), entitlements, now);
  }

  /**
   * The cookie of a pass for what {@code entitlements} open besides {@code queue}, or the one that
   * removes the room's pass when nothing is left.
   */
  public ResponseCookie without(String visitor, List<Entitlement> entitlements, QueueId queue) {
    Instant now = clock.instant();
    List<Entitlement> others = Pass.othersOpenAt(entitlements, queue.item(), now);
    return others.isEmpty()
        ? cookies.clearPass(queue.room())
        : issue(visitor, queue.room(), others, now).cookie();
  }

  private Issued issue(String visitor, String room, List<Entitlement> entitlements, Instant now) {
    String token = tokens.issuePass(visitor, room, entitlements);
    Instant ends = entitlements.stream().map(Entitlement::until).max(Instant::compareTo).get();
    Duration lifetime = Duration.between(now, ends);
    // Max-Age counts whole seconds: round up, so the cookie outlives its last entitlement.
    long seconds = lifetime.getSeconds() + (lifetime.getNano() > 0 ? 1 : 0);
    return new Issued(
        visitor, entitlements, token, cookies.pass(room, token, Duration.ofSeconds(seconds)), now);
  }
}
