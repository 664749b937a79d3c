package io.anteroom.gateway;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A client that sends its request body slowly: the headers at once, then the body a byte at a time
 * spread over a given time, as an attacker dripping a body would. The pace is what the test sends,
 * not a wait for a result, so it is kept with plain pauses between the bytes.
 */
public final class SlowBody {

  private SlowBody() {}

  /**
   * Sends {@code method path} to the gateway on {@code port} with a body of {@code bytes} bytes
   * dripped over {@code over}, and reads the answer's status.
   *
   * @param cookies the {@code Cookie} header, or null
   * @return the status code of the answer; 0 when the connection closed without one
   */
  public static int send(
      int port, String method, String path, String cookies, int bytes, Duration over) {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout((int) over.plusSeconds(10).toMillis());
      OutputStream out = socket.getOutputStream();
      StringBuilder head =
          new StringBuilder()
              .append(method)
              .append(' ')
              .append(path)
              .append(" HTTP/1.1\r\nHost: 127.0.0.1:")
              .append(port)
              .append("\r\nContent-Type: text/plain\r\nContent-Length: ")
              .append(bytes)
              .append("\r\nConnection: close\r\n");
      if (cookies != null) {
        head.append("Cookie: ").append(cookies).append("\r\n");
      }
      out.write(head.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
      out.flush();
      long pause = over.toNanos() / bytes;
      for (int i = 0; i < bytes; i++) {
        TimeUnit.NANOSECONDS.sleep(pause);
        try {
          out.write('x');
          out.flush();
        } catch (IOException closed) {
          break; // the gateway answered and closed before the body was done
        }
      }
      return status(socket);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }

  /** The status code of the answer {@code socket} reads next; 0 when it closed without one. */
  public static int status(Socket socket) throws IOException {
    BufferedReader in =
        new BufferedReader(
            new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
    String status = in.readLine();
    return status == null ? 0 : Integer.parseInt(status.split(" ")[1]);
  }
}
