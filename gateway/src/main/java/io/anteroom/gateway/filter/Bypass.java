package io.anteroom.gateway.filter;

import io.anteroom.gateway.client.Cidr;
import io.anteroom.gateway.client.ClientAddress;
import io.anteroom.gateway.room.ItemSource;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.util.pattern.PathPattern;

/**
 * Requests of one room that pass without a queue: reads (GET, HEAD) of static assets by file
 * extension or of listed paths, any request from a listed network, and any request carrying the
 * room's secret in the {@value #SECRET_HEADER} header (for monitoring). The header is one of
 * Anteroom's own, so it never reaches the origin. Paths are judged on the normal form the path
 * guard lets through. An extension on the segment that holds the room's item ({@code
 * /products/1.js} for {@code /products/{id}}) is part of the item's spelling, not an asset's.
 */
final class Bypass {

  /** The header a monitoring probe sends the room's bypass secret in. */
  static final String SECRET_HEADER = "Anteroom-Bypass";

  private final Set<String> extensions;
  private final List<PathPattern> paths;
  private final List<Cidr> networks;
  private final byte[] secretDigest;
  private final ClientAddress clients;
  private final ItemSource items;

  /**
   * @param secret the monitoring secret, or null for none
   * @param items where the room reads a request's item
   */
  Bypass(
      Set<String> extensions,
      List<PathPattern> paths,
      List<Cidr> networks,
      String secret,
      ClientAddress clients,
      ItemSource items) {
    this.items = items;
    this.extensions = Set.copyOf(extensions);
    this.paths = List.copyOf(paths);
    this.networks = List.copyOf(networks);
    this.secretDigest = secret == null ? null : sha256(secret);
    this.clients = clients;
  }

  boolean matches(ServerWebExchange exchange) {
    ServerHttpRequest request = exchange.getRequest();
    return (isRead(request.getMethod()) && (isAsset(exchange) || isListedPath(request)))
        || hasSecret(request)
        || fromListedNetwork(request);
  }

  private boolean isAsset(ServerWebExchange exchange) {
    String path = exchange.getRequest().getPath().pathWithinApplication().value();
    int slash = path.lastIndexOf('/');
    int dot = path.lastIndexOf('.');
    if (dot <= slash + 1 || path.indexOf(';') >= 0) {
      return false;
    }
    return extensions.contains(path.substring(dot + 1).toLowerCase(Locale.ROOT))
        && !items.holdsLastSegment(exchange);
  }

  private boolean isListedPath(ServerHttpRequest request) {
    if (paths.isEmpty()) {
      return false;
    }
    PathContainer path = request.getPath().pathWithinApplication();
    for (PathPattern pattern : paths) {
      if (pattern.matches(path)) {
        return true;
      }
    }
    return false;
  }

  /** Compares digests, so the time taken says nothing about the secret nor its length. */
  private boolean hasSecret(ServerHttpRequest request) {
    if (secretDigest == null) {
      return false;
    }
    List<String> sent = request.getHeaders().get(SECRET_HEADER);
    return sent != null
        && sent.size() == 1
        && MessageDigest.isEqual(secretDigest, sha256(sent.get(0)));
  }

  private boolean fromListedNetwork(ServerHttpRequest request) {
    if (networks.isEmpty()) {
      return false;
    }
    Optional<InetAddress> client = clients.of(request);
    if (client.isEmpty()) {
      return false;
    }
    for (Cidr network : networks) {
      if (network.contains(client.get())) {
        return true;
      }
    }
    return false;
  }

  private static boolean isRead(HttpMethod method) {
    return HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
  }

  private static byte[] sha256(String value) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JRE", e);
    }
  }
}
