package io.anteroom.guard;

import com.nimbusds.jwt.JWTClaimsSet;
import java.time.Clock;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;

/**
 * Checks the claims of a well-signed pass, as the gateway writes them: {@code iss}, {@code exp},
 * {@code iat}, {@code aud} (the room), {@code sub} (the visitor) and {@code items}, each {@code
 * {"item":…,"until":ms,"checked":ms}} (a bare item id in passes from before items had their own
 * ends, read as ending at {@code exp}). Times allow the leeway both ways.
 */
final class PassClaims {

  private final String issuer;
  private final Clock clock;
  private final long leewayMillis;

  PassClaims(String issuer, Clock clock, long leewayMillis) {
    this.issuer = issuer;
    this.clock = clock;
    this.leewayMillis = leewayMillis;
  }

  /** What the claims say of {@code item} (normalised) in {@code room}. */
  PassCheck check(JWTClaimsSet claims, String room, String item) {
    if (!issuer.equals(claims.getIssuer())) {
      return PassCheck.refused(Refusal.ISSUER);
    }
    long now = clock.millis();
    Date expires = claims.getExpirationTime();
    Date issued = claims.getIssueTime();
    String visitor = claims.getSubject();
    if (expires == null || issued == null || visitor == null || visitor.isEmpty()) {
      return PassCheck.refused(Refusal.MALFORMED);
    }
    if (expires.getTime() + leewayMillis <= now || issued.getTime() - leewayMillis > now) {
      return PassCheck.refused(Refusal.EXPIRED);
    }
    List<String> audience = claims.getAudience();
    if (audience == null || !audience.contains(room)) {
      return PassCheck.refused(Refusal.WRONG_ROOM);
    }
    if (!(claims.getClaim("items") instanceof List<?> items)) {
      return PassCheck.refused(Refusal.MALFORMED);
    }
    for (Object entry : items) {
      Long until = until(entry, item, expires.getTime());
      if (until != null) {
        return until + leewayMillis <= now
            ? PassCheck.refused(Refusal.ITEM_ENDED)
            : PassCheck.accepted(visitor, item, Instant.ofEpochMilli(until));
      }
    }
    return PassCheck.refused(Refusal.WRONG_ITEM);
  }

  /** The end of {@code entry} in milliseconds when it names {@code item}, else null. */
  private static Long until(Object entry, String item, long expiresMillis) {
    if (entry instanceof String bare) {
      return bare.equals(item) ? expiresMillis : null;
    }
    if (entry instanceof Map<?, ?> map
        && item.equals(map.get("item"))
        && map.get("until") instanceof Number until) {
      return until.longValue();
    }
    return null;
  }
}
