package io.anteroom.guard;

import com.nimbusds.jose.jwk.JWKSet;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** A gateway's {@code /_anteroom/jwks.json} on a free port: the set can change, or fail. */
final class JwksServer implements AutoCloseable {

  private final HttpServer server;
  private final AtomicReference<JWKSet> keys;
  private final AtomicInteger fetches = new AtomicInteger();
  private volatile boolean failing;

  JwksServer(JWKSet keys) throws IOException {
    this.keys = new AtomicReference<>(keys);
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/_anteroom/jwks.json",
        exchange -> {
          try (exchange) {
            fetches.incrementAndGet();
            if (failing) {
              exchange.sendResponseHeaders(503, -1);
              return;
            }
            byte[] body = this.keys.get().toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/jwk-set+json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
              out.write(body);
            }
          }
        });
    server.start();
  }

  URI url() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/_anteroom/jwks.json");
  }

  /** Publishes {@code set} from the next fetch on. */
  void publish(JWKSet set) {
    keys.set(set);
  }

  /** Answers 503 from now on, or again the set. */
  void failing(boolean failing) {
    this.failing = failing;
  }

  int fetches() {
    return fetches.get();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
