package io.anteroom.testing.redis;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A one-command RESP2 client over a plain socket, so the harness needs no Redis client library.
 *
 * <p>Each call opens a connection, sends one command, reads one reply and closes. Replies become
 * text: simple and bulk strings as they are, integers in decimal, a nil reply as {@code null},
 * arrays (nested ones too) as their elements joined by {@code "\n"} with nil elements as empty
 * lines. An error reply is thrown as {@link RedisCommandException}; I/O failures, including a read
 * timeout, as {@link UncheckedIOException}.
 */
final class Resp {

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(1);

  private Resp() {}

  static String command(String host, int port, Duration readTimeout, String... args) {
    if (args.length == 0) {
      throw new IllegalArgumentException("a command needs at least its name");
    }
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), (int) CONNECT_TIMEOUT.toMillis());
      socket.setSoTimeout((int) readTimeout.toMillis());
      OutputStream out = new BufferedOutputStream(socket.getOutputStream());
      write(out, args);
      out.flush();
      return readReply(new BufferedInputStream(socket.getInputStream()));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "no reply to " + args[0] + " from redis at " + host + ":" + port, e);
    }
  }

  private static void write(OutputStream out, String... args) throws IOException {
    out.write(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
    for (String arg : args) {
      byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
      out.write(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
      out.write(bytes);
      out.write('\r');
      out.write('\n');
    }
  }

  private static String readReply(InputStream in) throws IOException {
    int type = in.read();
    if (type == -1) {
      throw new EOFException("connection closed before a reply");
    }
    String line = readLine(in);
    return switch (type) {
      case '+', ':' -> line;
      case '-' -> throw new RedisCommandException(line);
      case '$' -> readBulk(in, Integer.parseInt(line));
      case '*' -> readArray(in, Integer.parseInt(line));
      default -> throw new IOException("not a RESP2 reply: " + (char) type + line);
    };
  }

  private static String readBulk(InputStream in, int length) throws IOException {
    if (length < 0) {
      return null;
    }
    byte[] bytes = in.readNBytes(length);
    if (bytes.length < length) {
      throw new EOFException("connection closed inside a bulk string");
    }
    readLine(in);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private static String readArray(InputStream in, int count) throws IOException {
    if (count < 0) {
      return null;
    }
    List<String> lines = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      lines.add(Objects.toString(readReply(in), ""));
    }
    return String.join("\n", lines);
  }

  private static String readLine(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int previous = -1;
    for (int b = in.read(); b != -1; b = in.read()) {
      if (previous == '\r' && b == '\n') {
        byte[] bytes = line.toByteArray();
        return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
      }
      line.write(b);
      previous = b;
    }
    throw new EOFException("connection closed inside a reply line");
  }
}
