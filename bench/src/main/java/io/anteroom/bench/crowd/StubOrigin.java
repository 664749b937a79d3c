package io.anteroom.bench.crowd;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * The origin behind the gateway. Waiting visitors never reach it; only someone the room's token
 * bucket lets in at once, while a line is still empty, does, and gets a short page.
 */
final class StubOrigin implements AutoCloseable {

  static final String PAGE = "stub origin page";

  private final HttpServer server;

  StubOrigin(int port) {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 64);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on port " + port, e);
    }
    server.createContext(
        "/",
        exchange -> {
          byte[] body = PAGE.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "text/plain");
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
  }

  int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
