package io.anteroom.gateway.admin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Plain HTTP calls to a port of the gateway under test, as an operator's script would make them.
 */
public final class AdminClient {

  static final JsonMapper JSON = JsonMapper.builder().build();

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String base;
  private final String token;

  /** Calls to {@code port} with {@code token} as bearer token (none when null). */
  public AdminClient(int port, String token) {
    this.base = "http://127.0.0.1:" + port;
    this.token = token;
  }

  public HttpResponse<String> get(String path) {
    return send(request(path).GET());
  }

  HttpResponse<String> post(String path) {
    return send(request(path).POST(HttpRequest.BodyPublishers.noBody()));
  }

  public HttpResponse<String> post(String path, String json) {
    return send(json(request(path), "POST", json));
  }

  public HttpResponse<String> put(String path, String json) {
    return send(json(request(path), "PUT", json));
  }

  HttpResponse<String> patch(String path, String json) {
    return send(json(request(path), "PATCH", json));
  }

  HttpRequest.Builder request(String path) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path));
    return token == null ? request : request.header("Authorization", "Bearer " + token);
  }

  HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return http.send(
          request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static HttpRequest.Builder json(HttpRequest.Builder request, String method, String json) {
    return request
        .header("Content-Type", "application/json")
        .method(method, HttpRequest.BodyPublishers.ofString(json));
  }

  static JsonNode body(HttpResponse<String> response) {
    return JSON.readTree(response.body());
  }
}
