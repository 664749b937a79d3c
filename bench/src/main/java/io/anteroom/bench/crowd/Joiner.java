package io.anteroom.bench.crowd;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Sends joins of new visitors as fast as the gateway answers them: each request has no cookies and
 * asks for JSON, so the gateway gives it a new visitor id and a place in line. Bulk joins go
 * through {@link JoinLoop}, {@code inFlight} keep-alive connections with one request outstanding
 * each; single requests (openers, status polls) through Java's {@link HttpClient}.
 */
final class Joiner {

  static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final HttpClient client =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
  private final int inFlight;

  Joiner(int inFlight) {
    this.inFlight = inFlight;
  }

  /** {@code count} joins at {@code uri}; returns once every one has been answered or failed. */
  JoinLog join(URI uri, int count, int ticketEvery) {
    JoinLog log = new JoinLog(count, ticketEvery);
    InetSocketAddress address = new InetSocketAddress(uri.getHost(), uri.getPort());
    new JoinLoop(address, uri.getRawPath(), log).run(inFlight);
    return log;
  }

  /** One GET asking for JSON, with this cookie unless null; blocking; null when it failed. */
  HttpResponse<String> get(URI uri, String cookie) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(uri).header("Accept", "application/json").timeout(TIMEOUT);
    if (cookie != null) {
      request.header("Cookie", cookie);
    }
    try {
      return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (IOException e) {
      return null;
    }
  }
}
