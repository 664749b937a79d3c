package io.anteroom.gateway.admin;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/** The admin API's JSON responses; none is ever cached. */
final class AdminResponses {

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private AdminResponses() {}

  /** One bad value: the property or field it belongs to, and what is wrong with it. */
  record Problem(String field, String message) {}

  static Mono<ServerResponse> ok(Object body) {
    return json(HttpStatus.OK, body, headers -> {});
  }

  /** {@code {"error": message}}. */
  static Mono<ServerResponse> error(HttpStatus status, String message) {
    return error(status, message, headers -> {});
  }

  static Mono<ServerResponse> error(
      HttpStatus status, String message, Consumer<HttpHeaders> headers) {
    return json(status, Map.of("error", message), headers);
  }

  /**
   * 403 {@code {"error": "forbidden: …", "required": "operator", "role": "viewer"}}: the token is
   * valid but its role does not allow the call.
   */
  static Mono<ServerResponse> forbidden(Role required, Role role) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put(
        "error",
        "forbidden: this needs the "
            + required.value()
            + " role; the token's role is "
            + role.value());
    body.put("required", required.value());
    body.put("role", role.value());
    return json(HttpStatus.FORBIDDEN, body, headers -> {});
  }

  /** 400 {@code {"error": error, "problems": [{"field": …, "message": …}, …]}}. */
  static Mono<ServerResponse> invalid(String error, List<Problem> problems) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", error);
    body.put("problems", problems);
    return json(HttpStatus.BAD_REQUEST, body, headers -> {});
  }

  static Mono<ServerResponse> json(HttpStatus status, Object body, Consumer<HttpHeaders> headers) {
    return ServerResponse.status(status)
        .contentType(MediaType.APPLICATION_JSON)
        .cacheControl(CacheControl.noStore())
        .headers(headers)
        .bodyValue(JSON.writeValueAsString(body));
  }
}
