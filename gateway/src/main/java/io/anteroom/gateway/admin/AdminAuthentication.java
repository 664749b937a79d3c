package io.anteroom.gateway.admin;

import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.server.HandlerFilterFunction;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * Lets a request through to the admin API only with {@code Authorization: Bearer <token>} carrying
 * one of the configured tokens, and puts that token's {@link Operator} (name and role) on the
 * request. The presented token's SHA-256 is compared with every configured digest in constant time
 * and without stopping at a match, so response times tell neither which token matched nor how much
 * of one did. Without a configured token every request is refused: the API is off, never open.
 */
final class AdminAuthentication implements HandlerFilterFunction<ServerResponse, ServerResponse> {

  static final String OFF = "admin API is off: set ANTEROOM_ADMIN_TOKEN";
  static final String UNAUTHORIZED = "missing or wrong admin token";
  static final String CHALLENGE = "Bearer realm=\"anteroom-admin\"";

  private static final String SCHEME = "Bearer ";

  private final List<NamedToken> tokens;

  AdminAuthentication(AdminProperties properties) {
    this.tokens = List.copyOf(properties.named());
  }

  /** Whether a token is configured. */
  boolean enabled() {
    return !tokens.isEmpty();
  }

  /** The configured tokens' names and roles, never their digests. */
  List<String> names() {
    return tokens.stream().map(NamedToken::toString).toList();
  }

  /** The operator whose token an {@code Authorization} header value carries. */
  Optional<Operator> identify(String authorization) {
    if (tokens.isEmpty()
        || authorization == null
        || !authorization.regionMatches(true, 0, SCHEME, 0, SCHEME.length())) {
      return Optional.empty();
    }
    byte[] given = NamedToken.sha256(authorization.substring(SCHEME.length()).strip());
    NamedToken found = null;
    for (NamedToken token : tokens) {
      boolean match = token.matches(given);
      found = match ? token : found;
    }
    return Optional.ofNullable(found).map(token -> new Operator(token.name(), token.role()));
  }

  @Override
  public Mono<ServerResponse> filter(ServerRequest request, HandlerFunction<ServerResponse> next) {
    if (tokens.isEmpty()) {
      return AdminResponses.error(HttpStatus.FORBIDDEN, OFF);
    }
    Optional<Operator> operator =
        identify(request.headers().firstHeader(HttpHeaders.AUTHORIZATION));
    if (operator.isEmpty()) {
      return AdminResponses.error(
          HttpStatus.UNAUTHORIZED,
          UNAUTHORIZED,
          headers -> headers.set(HttpHeaders.WWW_AUTHENTICATE, CHALLENGE));
    }
    request.attributes().put(Operator.ATTRIBUTE, operator.get());
    return next.handle(request);
  }
}
