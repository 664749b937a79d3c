package io.anteroom.gateway.token;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.anteroom.queue.QueueId;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * The one owner of Anteroom's token format: compact JWS, HS256, with a {@code kid} and a {@code
 * typ} that tells passes from tickets. Passes may instead be signed with an asymmetric pass key
 * ({@link PassKeys}: {@code "alg":"EdDSA"} or {@code "ES256"}, the pass key's kid) so origins can
 * check them with the gateways' JWKS; their claims are the same.
 *
 * <pre>
 * pass:   {"alg":"HS256"|"EdDSA"|"ES256","kid":…,"typ":"anteroom-pass+jwt"}
 *         {"iss":…,"sub":visitor,"aud":room,"iat":…,"exp":…,"jti":…,
 *          "items":[{"item":item,"until":ms,"checked":ms,"admitted":ms},…]}
 * ticket: {"alg":"HS256","kid":…,"typ":"anteroom-ticket+jwt"}
 *         {"iss":…,"sub":visitor,"aud":room,"item":item,"iat":…,"jti":…,"joined":…,"place":…}
 * challenge: {"alg":"HS256","kid":…,"typ":"anteroom-challenge+jwt"}
 *         {"iss":…,"sub":visitor,"aud":room,"item":item,"pow":bits,"iat":…,"jti":…}
 * </pre>
 *
 * A pass's {@code items} each carry their own end and the time Redis last confirmed the session
 * ({@link Entitlement}, epoch milliseconds), and when the line admitted the visitor ({@code
 * admitted}, left out when there was no line: such an item, or one of a pass from before it was
 * written, never sends its holder back to the front); {@code exp} is the latest end, rounded up to
 * the second. Passes from before items carried their own ends list bare item ids, read as ending at
 * {@code exp}.
 *
 * <p>Reading never throws on bad input; it answers a {@link Rejection}. Issuing throws {@link
 * IllegalArgumentException} on arguments the caller should have validated.
 */
public final class TokenCodec {

  /** {@code typ} of a pass. */
  public static final String PASS_TYPE = "anteroom-pass+jwt";

  /** {@code typ} of a ticket. */
  public static final String TICKET_TYPE = "anteroom-ticket+jwt";

  /** {@code typ} of a proof-of-work challenge. */
  public static final String CHALLENGE_TYPE = "anteroom-challenge+jwt";

  /** How long a challenge may take to solve and be presented. */
  public static final Duration CHALLENGE_MAX_AGE = Duration.ofMinutes(10);

  /** Most items one pass opens; the oldest fall off. */
  public static final int MAX_ITEMS = 16;

  private static final JOSEObjectType PASS = new JOSEObjectType(PASS_TYPE);
  private static final JOSEObjectType TICKET = new JOSEObjectType(TICKET_TYPE);
  private static final JOSEObjectType CHALLENGE = new JOSEObjectType(CHALLENGE_TYPE);

  private final TokenKeys keys;
  private final PassKeys passKeys;
  private final String issuer;
  private final Clock clock;
  private final SignedClaimsReader reader;
  private final ClaimsValidator validator;
  private final JWSHeader passHeader;
  private final JWSHeader ticketHeader;
  private final JWSHeader challengeHeader;

  /**
   * Passes this gateway signed and read lately, by their exact text, checked in all but their times
   * (which {@link ClaimsValidator#timed} checks on every read): a holder's next requests with the
   * same pass cost a lookup. Bounded as {@link SignedClaimsReader}'s claims are.
   */
  private final Map<String, Pass> recentPasses = new ConcurrentHashMap<>();

  /**
   * @param keys the key new tokens are signed with and every key accepted
   * @param issuer the {@code iss} written into tokens and required when reading
   * @param clock the time tokens are issued and checked at
   * @param leeway clock difference tolerated between gateways for expiry and issue times
   * @param ticketMaxAge tickets older than this are expired
   */
  public TokenCodec(
      TokenKeys keys, String issuer, Clock clock, Duration leeway, Duration ticketMaxAge) {
    this(keys, PassKeys.hs256(), issuer, clock, leeway, ticketMaxAge);
  }

  /**
   * @param keys the HS256 key new tokens are signed with and every HS256 key accepted
   * @param passKeys how passes are signed, and the asymmetric pass keys accepted
   * @param issuer the {@code iss} written into tokens and required when reading
   * @param clock the time tokens are issued and checked at
   * @param leeway clock difference tolerated between gateways for expiry and issue times
   * @param ticketMaxAge tickets older than this are expired
   */
  public TokenCodec(
      TokenKeys keys,
      PassKeys passKeys,
      String issuer,
      Clock clock,
      Duration leeway,
      Duration ticketMaxAge) {
    if (issuer == null || issuer.isBlank()) {
      throw new IllegalArgumentException("issuer must not be blank");
    }
    if (leeway.isNegative() || ticketMaxAge.isNegative() || ticketMaxAge.isZero()) {
      throw new IllegalArgumentException(
          "leeway must not be negative and ticket max age must be positive, were "
              + leeway
              + " and "
              + ticketMaxAge);
    }
    this.keys = Objects.requireNonNull(keys, "keys");
    this.passKeys = Objects.requireNonNull(passKeys, "passKeys");
    this.issuer = issuer;
    this.clock = Objects.requireNonNull(clock, "clock");
    this.validator = new ClaimsValidator(issuer, clock, leeway, ticketMaxAge);
    this.passHeader =
        passKeys.signing().asymmetric()
            ? new JWSHeader.Builder(passKeys.signing().algorithm())
                .type(PASS)
                .keyID(passKeys.signingKid())
                .build()
            : header(PASS, keys.signingKid());
    this.ticketHeader = header(TICKET, keys.signingKid());
    this.challengeHeader = header(CHALLENGE, keys.signingKid());
    this.reader =
        new SignedClaimsReader(keys, passKeys, List.of(passHeader, ticketHeader, challengeHeader));
  }

  /** A codec with the configured keys (or a generated development key), issuer and durations. */
  public static TokenCodec from(TokenProperties properties, Clock clock) {
    return from(properties, TokenKeys.from(properties, clock), PassKeys.hs256(), clock);
  }

  /** A codec with the given keys and the configured issuer and durations. */
  public static TokenCodec from(
      TokenProperties properties, TokenKeys keys, PassKeys passKeys, Clock clock) {
    return new TokenCodec(
        keys, passKeys, properties.issuer(), clock, properties.leeway(), properties.ticketMaxAge());
  }

  /**
   * A pass for {@code visitor} to items of {@code room}.
   *
   * @param entitlements most recent first; those ended by now are dropped, and of several for one
   *     item only the first is kept, then only the first {@value #MAX_ITEMS}
   * @throws IllegalArgumentException when none is left, or one names no item id of a queue
   */
  public String issuePass(String visitor, String room, List<Entitlement> entitlements) {
    requireVisitor(visitor);
    long nowMillis = clock.millis();
    Map<String, Entitlement> kept = passItems(room, entitlements, nowMillis);
    long expires = 0;
    List<Map<String, Object>> items = new ArrayList<>(kept.size());
    for (Entitlement entitlement : kept.values()) {
      long until = entitlement.until().toEpochMilli();
      expires = Math.max(expires, Math.floorDiv(until + 999, 1000));
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("item", entitlement.item());
      item.put("until", until);
      item.put("checked", entitlement.checked().toEpochMilli());
      if (entitlement.admitted() != null) {
        item.put("admitted", entitlement.admitted().toEpochMilli());
      }
      items.add(item);
    }
    JWTClaimsSet claims =
        common(visitor, room, Math.floorDiv(nowMillis, 1000))
            .expirationTime(new Date(expires * 1000))
            .claim("items", items)
            .build();
    return sign(passHeader, claims);
  }

  /**
   * A pass for {@code visitor} to the given items of {@code room}, each ending {@code lifetime}
   * from now and confirmed now.
   *
   * @param items item ids, most recent first
   * @param lifetime at least one second
   */
  public String issuePass(String visitor, String room, List<String> items, Duration lifetime) {
    if (lifetime == null || lifetime.getSeconds() < 1) {
      throw new IllegalArgumentException("a pass lifetime must be at least 1s, was " + lifetime);
    }
    Instant now = clock.instant();
    List<Entitlement> entitlements = new ArrayList<>();
    for (String item : items == null ? List.<String>of() : items) {
      entitlements.add(new Entitlement(item, now.plus(lifetime), now));
    }
    return issuePass(visitor, room, entitlements);
  }

  /** A ticket for {@code visitor} who joins the line of {@code queue} now. */
  public String issueTicket(String visitor, QueueId queue) {
    return issueTicket(visitor, queue, null);
  }

  /**
   * A ticket for {@code visitor} waiting in {@code queue}.
   *
   * @param joinedAt when the visitor took the place, for a renewed ticket; null for now
   */
  public String issueTicket(String visitor, QueueId queue, Instant joinedAt) {
    return issueTicket(visitor, queue, joinedAt, Double.NaN);
  }

  /**
   * A ticket for {@code visitor} waiting in {@code queue} at {@code place}.
   *
   * @param joinedAt when the visitor took the place, for a renewed ticket; null for now
   * @param place the score of the place the line gave the visitor ({@link Ticket#place()}), NaN for
   *     none
   */
  public String issueTicket(String visitor, QueueId queue, Instant joinedAt, double place) {
    requireVisitor(visitor);
    long now = nowSeconds();
    long joined = joinedAt == null ? now : Math.min(now, joinedAt.getEpochSecond());
    JWTClaimsSet.Builder claims =
        common(visitor, queue.room(), now).claim("item", queue.item()).claim("joined", joined);
    if (Double.isFinite(place)) {
      claims.claim("place", place);
    }
    return sign(ticketHeader, claims.build());
  }

  /**
   * A challenge for {@code visitor} to take a place in {@code queue} after solving a puzzle of
   * {@code difficulty} leading zero bits.
   */
  public String issueChallenge(String visitor, QueueId queue, int difficulty) {
    requireVisitor(visitor);
    if (difficulty < 1 || difficulty > 32) {
      throw new IllegalArgumentException("difficulty must be 1 to 32 bits, was " + difficulty);
    }
    JWTClaimsSet claims =
        common(visitor, queue.room(), nowSeconds())
            .claim("item", queue.item())
            .claim("pow", difficulty)
            .build();
    return sign(challengeHeader, claims);
  }

  /**
   * The pass in {@code token} if it is valid for {@code room}; which of the room's queues it opens
   * is {@link Pass#opens}.
   */
  public Verified<Pass> readPass(String token, String room) {
    Pass known = token == null ? null : recentPasses.get(token);
    if (known != null) {
      return validator.timed(known, room);
    }
    Verified<Pass> read = read(token, PASS, room, validator::untimedPass);
    if (!(read instanceof Verified.Valid<Pass> valid)) {
      return read;
    }
    if (reader.signedWithOwnHeader(token, PASS)) {
      if (recentPasses.size() >= SignedClaimsReader.MAX_VERIFIED) {
        recentPasses.clear();
      }
      recentPasses.put(token, valid.value());
    }
    return validator.timed(valid.value(), room);
  }

  /** The ticket in {@code token} if it is valid for a queue of {@code room}. */
  public Verified<Ticket> readTicket(String token, String room) {
    return read(token, TICKET, room, validator::ticket);
  }

  /** The challenge in {@code token} if it is valid for a queue of {@code room}. */
  public Verified<Challenge> readChallenge(String token, String room) {
    return read(token, CHALLENGE, room, validator::challenge);
  }

  private <T> Verified<T> read(
      String token,
      JOSEObjectType type,
      String room,
      BiFunction<Map<String, Object>, String, Verified<T>> validate) {
    try {
      Verified<Map<String, Object>> signed = reader.read(token, type);
      if (signed instanceof Verified.Valid<Map<String, Object>> valid) {
        return validate.apply(valid.value(), room);
      }
      return Verified.rejected(((Verified.Rejected<?>) signed).reason());
    } catch (RuntimeException e) {
      // Nimbus should only throw ParseException; anything else on hostile input still rejects.
      return Verified.rejected(Rejection.MALFORMED);
    }
  }

  private JWTClaimsSet.Builder common(String visitor, String room, long nowSeconds) {
    return new JWTClaimsSet.Builder()
        .issuer(issuer)
        .subject(visitor)
        .audience(QueueId.requireRoom(room))
        .issueTime(new Date(nowSeconds * 1000))
        .jwtID(VisitorIds.random128());
  }

  private static Map<String, Entitlement> passItems(
      String room, List<Entitlement> entitlements, long nowMillis) {
    Map<String, Entitlement> kept = new LinkedHashMap<>();
    for (Entitlement entitlement : entitlements) {
      if (kept.size() == MAX_ITEMS) {
        break;
      }
      String item = new QueueId(room, entitlement.item()).item();
      if (entitlement.until().toEpochMilli() > nowMillis) {
        kept.putIfAbsent(item, entitlement);
      }
    }
    if (kept.isEmpty()) {
      throw new IllegalArgumentException("a pass opens at least one item not yet ended");
    }
    return kept;
  }

  private static void requireVisitor(String visitor) {
    if (!VisitorIds.isVisitorId(visitor)) {
      throw new IllegalArgumentException("not a visitor id: " + visitor);
    }
  }

  private long nowSeconds() {
    return Math.floorDiv(clock.millis(), 1000);
  }

  private String sign(JWSHeader header, JWTClaimsSet claims) {
    PassKey passKey = passKeys.signingKey();
    if (header == passHeader && passKey != null) {
      String input =
          header.toBase64URL()
              + "."
              + Base64URL.encode(claims.toString().getBytes(StandardCharsets.UTF_8));
      return input
          + "."
          + Base64URL.encode(passKey.sign(input.getBytes(StandardCharsets.US_ASCII)));
    }
    SignedJWT jwt = new SignedJWT(header, claims);
    try {
      jwt.sign(keys.signer());
    } catch (JOSEException e) {
      throw new IllegalStateException("HS256 signing failed with key " + keys.signingKid(), e);
    }
    return jwt.serialize();
  }

  private static JWSHeader header(JOSEObjectType type, String kid) {
    return new JWSHeader.Builder(JWSAlgorithm.HS256).type(type).keyID(kid).build();
  }
}
