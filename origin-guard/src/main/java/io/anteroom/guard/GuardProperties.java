package io.anteroom.guard;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The guard of a Spring Boot origin ({@link PassGuardAutoConfiguration}); off unless {@code
 * jwks-url} is set.
 *
 * @param jwksUrl the gateway's key set, {@code <gateway>/_anteroom/jwks.json}; default none (off)
 * @param issuer the {@code iss} of passes ({@code anteroom.tokens.issuer}); default {@code
 *     anteroom}
 * @param room the room of the gateway's {@code WaitingRoom} filter for these paths; required
 * @param paths the protected paths, e.g. {@code /products/{id}} and {@code /products/{id}/**}, the
 *     item in braces; required
 * @param itemHeader a request header holding the item for paths without one in braces; default none
 *     (such paths are checked for the room-wide line)
 * @param itemFormat {@code text} or {@code integer}, as the room's {@code item-format}: {@code
 *     integer} for an origin that reads ids as numbers; default {@code text}
 * @param itemCase {@code sensitive} or {@code insensitive}, as the room's {@code item-case};
 *     default {@code sensitive}
 * @param passHeader the header the gateway forwards the pass in ({@code
 *     anteroom.gateway.forward-pass-header}); default {@code Anteroom-Pass}
 * @param passCookie a cookie to read the pass from when the header is absent; default none
 * @param onRefusal {@code forbidden} (403 naming the reason) or {@code redirect} (303 to the
 *     gateway for a request without a pass); default {@code forbidden}
 * @param gatewayUrl the gateway's public address, required with {@code redirect}; default none
 * @param algorithms the JWS algorithms accepted, asymmetric only; default {@code EdDSA}, {@code
 *     Ed25519}, {@code ES256}
 * @param leeway clock difference tolerated with the gateways; default {@code 30s}
 * @param cacheTimeToLive how long a fetched key set is used; default {@code 5m}
 * @param refreshMinInterval the key set is fetched for unknown kids at most twice per interval;
 *     default {@code 10s}
 * @param timeout connect and read timeout of a fetch of the key set; default {@code 2s}
 * @param outageTolerance how long the last key set is used while the gateway cannot be reached;
 *     default {@code 15m}
 */
@ConfigurationProperties("anteroom.guard")
public record GuardProperties(
    URI jwksUrl,
    @DefaultValue("anteroom") String issuer,
    String room,
    @DefaultValue({}) List<String> paths,
    String itemHeader,
    @DefaultValue("text") GuardSettings.ItemFormat itemFormat,
    @DefaultValue("sensitive") GuardSettings.ItemCase itemCase,
    @DefaultValue(GuardSettings.DEFAULT_PASS_HEADER) String passHeader,
    String passCookie,
    @DefaultValue("forbidden") OnRefusal onRefusal,
    URI gatewayUrl,
    @DefaultValue({"EdDSA", "Ed25519", "ES256"}) List<String> algorithms,
    @DefaultValue("30s") Duration leeway,
    @DefaultValue("5m") Duration cacheTimeToLive,
    @DefaultValue("10s") Duration refreshMinInterval,
    @DefaultValue("2s") Duration timeout,
    @DefaultValue("15m") Duration outageTolerance) {

  /** Which requests are checked and how refusals are answered. */
  public GuardSettings settings() {
    return new GuardSettings(
        room,
        paths,
        itemHeader,
        itemFormat,
        itemCase,
        passHeader,
        passCookie,
        onRefusal,
        gatewayUrl);
  }

  /** The verifier these properties describe. */
  public PassVerifier verifier() {
    if (jwksUrl == null) {
      throw new IllegalArgumentException("anteroom.guard.jwks-url: required");
    }
    return PassVerifier.builder()
        .jwksUrl(jwksUrl)
        .issuer(issuer)
        .algorithms(algorithms)
        .leeway(leeway)
        .cacheTimeToLive(cacheTimeToLive)
        .refreshMinInterval(refreshMinInterval)
        .timeout(timeout)
        .outageTolerance(outageTolerance)
        .build();
  }
}
