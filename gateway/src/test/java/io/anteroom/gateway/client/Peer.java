package io.anteroom.gateway.client;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One HTTP/1.1 request from a chosen local address (any of 127.0.0.0/8, or ::1), with headers
 * exactly as written, so a test can be a client or a proxy at an address of its choosing.
 */
final class Peer {

  /** The status and body of an answer. */
  record Answer(int status, String body) {}

  private final InetAddress from;

  Peer(String from) {
    this.from = Cidr.literal(from);
  }

  /** A JSON GET of {@code path} from this peer to the gateway at {@code to}:{@code port}. */
  Answer get(String to, int port, String path, Map<String, String> headers) {
    try (Socket socket = new Socket()) {
      socket.bind(new InetSocketAddress(from, 0));
      socket.connect(new InetSocketAddress(Cidr.literal(to), port), 5000);
      socket.setSoTimeout(10_000);
      StringBuilder request =
          new StringBuilder("GET ")
              .append(path)
              .append(" HTTP/1.1\r\nHost: gateway\r\nAccept: application/json\r\n");
      headers.forEach(
          (name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
      request.append("Connection: close\r\n\r\n");
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      int bodyStart = answer.indexOf("\r\n\r\n");
      return new Answer(
          Integer.parseInt(answer.substring(9, 12)),
          bodyStart < 0 ? "" : answer.substring(bodyStart + 4));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
