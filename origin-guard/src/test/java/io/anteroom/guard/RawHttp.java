package io.anteroom.guard;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One {@code GET} whose request target is written byte for byte as given (as UTF-8), which no HTTP
 * client library does: they normalise, encode or refuse the spellings under test.
 */
final class RawHttp {

  /**
   * What came back.
   *
   * @param status the status code; 0 when the server closed the connection without answering
   * @param body the body, de-chunked
   */
  record Response(int status, String body) {}

  private RawHttp() {}

  /** {@code GET target} on {@code port}, with the pass in {@code Anteroom-Pass} unless null. */
  static Response get(int port, String target, String pass) {
    StringBuilder request =
        new StringBuilder("GET ")
            .append(target)
            .append(" HTTP/1.1\r\nHost: 127.0.0.1:")
            .append(port)
            .append("\r\nConnection: close\r\n");
    if (pass != null) {
      request.append("Anteroom-Pass: ").append(pass).append("\r\n");
    }
    request.append("\r\n");
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(request.toString().getBytes(StandardCharsets.UTF_8));
      return parse(readAll(socket.getInputStream()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Everything until the server closes, or what came before it reset the connection. */
  private static byte[] readAll(InputStream in) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    try {
      for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
        out.write(buffer, 0, read);
      }
    } catch (SocketException e) {
      // A reset after a refusal: keep what was answered.
    }
    return out.toByteArray();
  }

  private static Response parse(byte[] raw) {
    // Latin-1 keeps one char per byte, so chunk sizes count right; the body is UTF-8 at the end.
    String text = new String(raw, StandardCharsets.ISO_8859_1);
    int headEnd = text.indexOf("\r\n\r\n");
    if (!text.startsWith("HTTP/1.") || headEnd < 0) {
      return new Response(0, text);
    }
    String head = text.substring(0, headEnd);
    int status = Integer.parseInt(head.substring(9, 12));
    String body = text.substring(headEnd + 4);
    boolean chunked = head.toLowerCase(Locale.ROOT).contains("\r\ntransfer-encoding: chunked");
    String bytes = chunked ? dechunk(body) : body;
    return new Response(
        status, new String(bytes.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
  }

  private static String dechunk(String chunked) {
    StringBuilder body = new StringBuilder();
    int at = 0;
    while (at < chunked.length()) {
      int lineEnd = chunked.indexOf("\r\n", at);
      int size = Integer.parseInt(chunked.substring(at, lineEnd).split(";")[0].trim(), 16);
      if (size == 0) {
        break;
      }
      body.append(chunked, lineEnd + 2, lineEnd + 2 + size);
      at = lineEnd + 2 + size + 2;
    }
    return body.toString();
  }
}
