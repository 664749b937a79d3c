package io.anteroom.gateway.token;

import java.time.Duration;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code GET /_anteroom/jwks.json} on the visitors' port of every gateway: the public pass keys
 * accepted now ({@link PassKeys#jwks()}), for origins that check passes themselves; {@code
 * {"keys":[]}} with HS256 passes. Served from memory, before any route, so it is never queued and
 * never calls Redis. Caches may keep it {@value #MAX_AGE_SECONDS} seconds: a new pass key should be
 * listed that long before it signs (docs/operations.md, "Passes an origin can verify").
 */
public final class JwksEndpoint {

  /** Where every gateway serves the JWKS. */
  public static final String PATH = "/_anteroom/jwks.json";

  /** How long an origin or a cache may keep the JWKS. */
  public static final int MAX_AGE_SECONDS = 60;

  private static final CacheControl CACHE =
      CacheControl.maxAge(Duration.ofSeconds(MAX_AGE_SECONDS)).cachePublic();

  private final PassKeys keys;

  public JwksEndpoint(PassKeys keys) {
    this.keys = keys;
  }

  /** The route answering {@link #PATH}. */
  public RouterFunction<ServerResponse> route() {
    return RouterFunctions.route(RequestPredicates.GET(PATH), this::jwks);
  }

  private Mono<ServerResponse> jwks(ServerRequest request) {
    return ServerResponse.ok()
        .cacheControl(CACHE)
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue(keys.jwks());
  }
}
