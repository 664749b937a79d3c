package io.anteroom.bench.crowd;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends joins of new visitors as fast as the gateway answers them: each request has no cookies and
 * asks for JSON, so the gateway gives it a new visitor id and a place in line. At most {@code
 * inFlight} requests are outstanding; the HTTP client opens a connection for each and reuses them.
 */
final class Joiner {

  static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final HttpClient client;
  private final int inFlight;
  private final AtomicReference<String> firstError = new AtomicReference<>();

  Joiner(int inFlight) {
    this.client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(TIMEOUT)
            .build();
    this.inFlight = inFlight;
  }

  /** {@code count} joins at {@code uri}; returns once every one has been answered or failed. */
  JoinLog join(URI uri, int count, int ticketEvery) {
    HttpRequest request =
        HttpRequest.newBuilder(uri)
            .GET()
            .header("Accept", "application/json")
            .timeout(TIMEOUT)
            .build();
    JoinLog log = new JoinLog(count, ticketEvery);
    Semaphore permits = new Semaphore(inFlight);
    for (int i = 0; i < count; i++) {
      permits.acquireUninterruptibly();
      int index = i;
      log.sent[index] = System.nanoTime();
      client
          .sendAsync(request, HttpResponse.BodyHandlers.ofString())
          .handle(
              (response, error) -> {
                long at = System.nanoTime();
                log.record(index, at, response != null ? Answer.of(response) : failure(error));
                permits.release();
                return null;
              });
    }
    permits.acquireUninterruptibly(inFlight);
    permits.release(inFlight);
    return log;
  }

  /** One request, blocking; a failure is an {@link Answer} too. */
  Answer once(HttpRequest request) {
    try {
      return Answer.of(client.send(request, HttpResponse.BodyHandlers.ofString()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (Exception e) {
      return failure(e);
    }
  }

  /** The body of one GET, blocking, or an exception. */
  HttpResponse<String> get(HttpRequest request) throws Exception {
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }

  /** The first failure of any request so far, for the log; null when none failed. */
  String firstError() {
    return firstError.get();
  }

  private Answer failure(Throwable error) {
    Throwable cause =
        error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    firstError.compareAndSet(null, cause.toString());
    return Answer.failed(
        cause instanceof HttpTimeoutException ? Answer.Kind.TIMEOUT : Answer.Kind.SOCKET_ERROR);
  }
}
