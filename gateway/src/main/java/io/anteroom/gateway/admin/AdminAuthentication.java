package io.anteroom.gateway.admin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.server.HandlerFilterFunction;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * Lets a request through to the admin API only with {@code Authorization: Bearer <token>} carrying
 * the configured token. Both tokens are compared as SHA-256 digests in constant time, so neither
 * the content nor the length of the configured token leaks through response times. Without a
 * configured token every request is refused: the API is off, never open.
 */
final class AdminAuthentication implements HandlerFilterFunction<ServerResponse, ServerResponse> {

  static final String OFF = "admin API is off: set ANTEROOM_ADMIN_TOKEN";
  static final String UNAUTHORIZED = "missing or wrong admin token";
  static final String CHALLENGE = "Bearer realm=\"anteroom-admin\"";

  private static final String SCHEME = "Bearer ";

  /** Digest of the configured token, or null when the API is off. */
  private final byte[] expected;

  AdminAuthentication(AdminProperties properties) {
    this.expected = properties.enabled() ? sha256(properties.token()) : null;
  }

  /** Whether a token is configured. */
  boolean enabled() {
    return expected != null;
  }

  /** Whether an {@code Authorization} header value carries the configured token. */
  boolean accepts(String authorization) {
    if (expected == null
        || authorization == null
        || !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
      return false;
    }
    byte[] given = sha256(authorization.substring(SCHEME.length()).strip());
    return MessageDigest.isEqual(expected, given);
  }

  @Override
  public Mono<ServerResponse> filter(ServerRequest request, HandlerFunction<ServerResponse> next) {
    if (expected == null) {
      return AdminResponses.error(HttpStatus.FORBIDDEN, OFF);
    }
    if (!accepts(request.headers().firstHeader(HttpHeaders.AUTHORIZATION))) {
      return AdminResponses.error(
          HttpStatus.UNAUTHORIZED,
          UNAUTHORIZED,
          headers -> headers.set(HttpHeaders.WWW_AUTHENTICATE, CHALLENGE));
    }
    return next.handle(request);
  }

  private static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
