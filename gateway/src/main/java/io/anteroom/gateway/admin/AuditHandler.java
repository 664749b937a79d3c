package io.anteroom.gateway.admin;

import java.util.Map;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * {@code GET /admin/api/audit?count=100}: the last changes made through the admin API on any
 * gateway, newest first, from the {@link RedisAuditTrail}.
 */
final class AuditHandler {

  static final int DEFAULT_COUNT = 100;
  static final int MAX_COUNT = 1000;

  private final RedisAuditTrail trail;

  AuditHandler(RedisAuditTrail trail) {
    this.trail = trail;
  }

  /** {@code {"entries": [{"id", "at", "who", "from", "what", "target", "old", "new"}, …]}}. */
  Mono<ServerResponse> recent(ServerRequest request) {
    int count = count(request);
    return trail
        .recent(count)
        .map(entries -> entries.stream().map(AuditEntry::view).toList())
        .flatMap(entries -> AdminResponses.ok(Map.of("entries", entries)));
  }

  private static int count(ServerRequest request) {
    String text = request.queryParam("count").orElse(null);
    if (text == null) {
      return DEFAULT_COUNT;
    }
    int count;
    try {
      count = Integer.parseInt(text.strip());
    } catch (NumberFormatException e) {
      count = 0;
    }
    if (count < 1 || count > MAX_COUNT) {
      throw AdminException.badRequest("count must be a whole number from 1 to " + MAX_COUNT);
    }
    return count;
  }
}
