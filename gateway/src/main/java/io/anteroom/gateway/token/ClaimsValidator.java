package io.anteroom.gateway.token;

import io.anteroom.queue.QueueId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns the claims of a well-signed token into a {@link Pass} or {@link Ticket}, checking in order
 * the issuer, the room, the form of every claim, and the time.
 */
final class ClaimsValidator {

  private final String issuer;
  private final Clock clock;
  private final long leewayMillis;
  private final long ticketMaxAgeMillis;

  ClaimsValidator(String issuer, Clock clock, Duration leeway, Duration ticketMaxAge) {
    this.issuer = issuer;
    this.clock = clock;
    this.leewayMillis = leeway.toMillis();
    this.ticketMaxAgeMillis = ticketMaxAge.toMillis();
  }

  Verified<Pass> pass(Map<String, Object> claims, String room) {
    Verified<Pass> pass = untimedPass(claims, room);
    return pass instanceof Verified.Valid<Pass> valid ? timed(valid.value(), room) : pass;
  }

  /**
   * The pass the claims describe, checked in all but its times, which change from one request to
   * the next: {@link #timed} checks those.
   */
  Verified<Pass> untimedPass(Map<String, Object> claims, String room) {
    Rejection problem = origin(claims, room);
    String visitor = Claims.string(claims, "sub");
    String id = Claims.string(claims, "jti");
    long issued = Claims.seconds(claims, "iat");
    long expires = Claims.seconds(claims, "exp");
    List<Entitlement> entitlements =
        Claims.entitlements(claims, TokenCodec.MAX_ITEMS, expires, issued);
    if (problem == null
        && (!wellFormed(visitor, id, issued)
            || expires == Claims.ABSENT
            || entitlements == null
            || !normalised(entitlements))) {
      problem = Rejection.CLAIMS;
    }
    if (problem != null) {
      return Verified.rejected(problem);
    }
    return Verified.valid(
        new Pass(
            visitor,
            room,
            entitlements,
            Instant.ofEpochSecond(issued),
            Instant.ofEpochSecond(expires),
            id));
  }

  /**
   * {@code pass} if it is for {@code room} and valid now: issued, not expired, and with the
   * entitlements not yet ended (with the leeway); the same pass when none has ended.
   */
  Verified<Pass> timed(Pass pass, String room) {
    if (!pass.room().equals(room)) {
      return Verified.rejected(Rejection.AUDIENCE);
    }
    Rejection problem =
        timing(pass.issuedAt().getEpochSecond(), pass.expiresAt().getEpochSecond() * 1000);
    if (problem != null) {
      return Verified.rejected(problem);
    }
    long now = clock.millis();
    List<Entitlement> all = pass.entitlements();
    int ended = 0;
    for (Entitlement entitlement : all) {
      if (entitlement.until().toEpochMilli() + leewayMillis <= now) {
        ended++;
      }
    }
    if (ended == 0) {
      return Verified.valid(pass);
    }
    if (ended == all.size()) {
      return Verified.rejected(Rejection.EXPIRED);
    }
    List<Entitlement> open = new ArrayList<>(all.size() - ended);
    for (Entitlement entitlement : all) {
      if (entitlement.until().toEpochMilli() + leewayMillis > now) {
        open.add(entitlement);
      }
    }
    return Verified.valid(
        new Pass(pass.visitor(), room, open, pass.issuedAt(), pass.expiresAt(), pass.id()));
  }

  /** Whether every entitlement names a normalised item id, as queue ids hold them. */
  private static boolean normalised(List<Entitlement> entitlements) {
    for (Entitlement entitlement : entitlements) {
      if (!QueueId.isItem(entitlement.item())) {
        return false;
      }
    }
    return true;
  }

  Verified<Ticket> ticket(Map<String, Object> claims, String room) {
    return ticket(claims, room, ticketMaxAgeMillis);
  }

  /** A ticket's claims: a visitor, a queue of the room, an issue time at most maxAge ago. */
  private Verified<Ticket> ticket(Map<String, Object> claims, String room, long maxAgeMillis) {
    Rejection problem = origin(claims, room);
    String visitor = Claims.string(claims, "sub");
    String id = Claims.string(claims, "jti");
    long issued = Claims.seconds(claims, "iat");
    QueueId queue = problem == null ? queue(room, Claims.string(claims, "item")) : null;
    if (problem == null && (!wellFormed(visitor, id, issued) || queue == null)) {
      problem = Rejection.CLAIMS;
    }
    if (problem == null) {
      // A ticket ages out like a pass that expires ticketMaxAge after its issue.
      problem = timing(issued, issued * 1000 + maxAgeMillis);
    }
    if (problem != null) {
      return Verified.rejected(problem);
    }
    long joined = claims.containsKey("joined") ? Claims.seconds(claims, "joined") : issued;
    double place = Claims.number(claims, "place");
    if (joined == Claims.ABSENT
        || joined > issued
        || (claims.containsKey("place") && Double.isNaN(place))) {
      return Verified.rejected(Rejection.CLAIMS);
    }
    return Verified.valid(
        new Ticket(
            visitor,
            queue,
            Instant.ofEpochSecond(issued),
            id,
            Instant.ofEpochSecond(joined),
            place));
  }

  Verified<Challenge> challenge(Map<String, Object> claims, String room) {
    Verified<Ticket> ticket = ticket(claims, room, TokenCodec.CHALLENGE_MAX_AGE.toMillis());
    long difficulty = Claims.whole(claims, "pow", 1, 32);
    if (ticket instanceof Verified.Rejected<Ticket> rejected) {
      return Verified.rejected(rejected.reason());
    }
    if (difficulty == Claims.ABSENT) {
      return Verified.rejected(Rejection.CLAIMS);
    }
    Ticket t = ((Verified.Valid<Ticket>) ticket).value();
    return Verified.valid(new Challenge(t.visitor(), t.queue(), (int) difficulty, t.issuedAt()));
  }

  /** Checks who issued the token and for which room. */
  private Rejection origin(Map<String, Object> claims, String room) {
    if (!issuer.equals(claims.get("iss"))) {
      return Rejection.ISSUER;
    }
    if (room == null || !room.equals(claims.get("aud"))) {
      return Rejection.AUDIENCE;
    }
    return null;
  }

  private Rejection timing(long issuedSeconds, long expiresMillis) {
    long now = clock.millis();
    if (issuedSeconds * 1000 - leewayMillis > now) {
      return Rejection.NOT_YET_VALID;
    }
    // Valid while expiry + leeway is still ahead, as nimbus's DefaultJWTClaimsVerifier decides.
    if (expiresMillis + leewayMillis <= now) {
      return Rejection.EXPIRED;
    }
    return null;
  }

  private static boolean wellFormed(String visitor, String id, long issued) {
    return VisitorIds.isVisitorId(visitor) && id != null && issued != Claims.ABSENT;
  }

  private static QueueId queue(String room, String item) {
    if (item == null) {
      return null;
    }
    try {
      return new QueueId(room, item);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
