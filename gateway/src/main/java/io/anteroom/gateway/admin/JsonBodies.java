package io.anteroom.gateway.admin;

import java.nio.charset.StandardCharsets;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.server.ServerRequest;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads admin request bodies: at most {@value #MAX_BYTES} bytes of one JSON object without
 * duplicate names. Anything else fails with an {@link AdminException} (400, or 413 when too large),
 * so a bad body never reaches a handler and never becomes a 500.
 */
final class JsonBodies {

  static final int MAX_BYTES = 16 * 1024;

  private static final JsonMapper JSON =
      JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private JsonBodies() {}

  /** The body as a JSON object. */
  static Mono<ObjectNode> object(ServerRequest request) {
    long declared = request.headers().contentLength().orElse(-1);
    if (declared > MAX_BYTES) {
      return Mono.error(tooLarge());
    }
    return DataBufferUtils.join(request.body(BodyExtractors.toDataBuffers()), MAX_BYTES)
        .onErrorMap(DataBufferLimitException.class, e -> tooLarge())
        .map(JsonBodies::text)
        .defaultIfEmpty("")
        .map(JsonBodies::parseObject);
  }

  /** Parses {@code text} as one JSON object. */
  static ObjectNode parseObject(String text) {
    if (text.isBlank()) {
      throw AdminException.badRequest("the body must be a JSON object");
    }
    JsonNode node;
    try {
      node = JSON.readTree(text);
    } catch (JacksonException e) {
      throw AdminException.badRequest("the body is not valid JSON: " + e.getOriginalMessage());
    }
    if (!(node instanceof ObjectNode object)) {
      throw AdminException.badRequest("the body must be a JSON object");
    }
    return object;
  }

  private static String text(DataBuffer buffer) {
    try {
      return buffer.toString(StandardCharsets.UTF_8);
    } finally {
      DataBufferUtils.release(buffer);
    }
  }

  private static AdminException tooLarge() {
    return new AdminException(
        HttpStatus.CONTENT_TOO_LARGE, "the body is larger than " + MAX_BYTES + " bytes");
  }
}
