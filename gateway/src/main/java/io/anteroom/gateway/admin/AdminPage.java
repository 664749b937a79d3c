package io.anteroom.gateway.admin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.springframework.core.io.ClassPathResource;
import org.springframework.http.CacheControl;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Mono;

/**
 * The admin page: one HTML file with its scripts (the page's, and the charts' drawing, kept apart)
 * and style, all from {@code admin/} on the classpath, loaded once. They hold no data, so they are
 * served without the token; the page asks the operator for it and sends it with every API call. The
 * Content-Security-Policy lets the page load only its own script and style and talk only to this
 * origin.
 */
final class AdminPage {

  static final String PATH = "/admin";
  static final String SCRIPT = "/admin/admin.js";
  static final String CHART_SCRIPT = "/admin/chart.js";
  static final String STYLE = "/admin/admin.css";

  static final String CONTENT_SECURITY_POLICY =
      "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
          + "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

  private final byte[] html = read("admin/index.html");
  private final byte[] script = read("admin/admin.js");
  private final byte[] chartScript = read("admin/chart.js");
  private final byte[] style = read("admin/admin.css");

  Mono<ServerResponse> page(ServerRequest request) {
    return serve(html, MediaType.parseMediaType("text/html;charset=UTF-8"));
  }

  Mono<ServerResponse> script(ServerRequest request) {
    return serve(script, MediaType.parseMediaType("text/javascript;charset=UTF-8"));
  }

  Mono<ServerResponse> chartScript(ServerRequest request) {
    return serve(chartScript, MediaType.parseMediaType("text/javascript;charset=UTF-8"));
  }

  Mono<ServerResponse> style(ServerRequest request) {
    return serve(style, MediaType.parseMediaType("text/css;charset=UTF-8"));
  }

  private static Mono<ServerResponse> serve(byte[] body, MediaType type) {
    return ServerResponse.ok()
        .contentType(type)
        .cacheControl(CacheControl.noStore())
        .header("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        .header("X-Content-Type-Options", "nosniff")
        .header("X-Frame-Options", "DENY")
        .header("Referrer-Policy", "no-referrer")
        .bodyValue(body);
  }

  private static byte[] read(String path) {
    try (InputStream in = new ClassPathResource(path).getInputStream()) {
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("the admin page is missing " + path, e);
    }
  }
}
