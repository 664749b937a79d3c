package io.anteroom.bench.crowd;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads one HTTP/1.1 response from the bytes received so far: status, {@code Set-Cookie} headers,
 * and a body framed by {@code Content-Length} or chunked. Enough for the gateway's JSON answers;
 * anything it cannot frame is an error, never a guess.
 */
final class ResponseReader {

  private static final byte[] HEADER_END = {'\r', '\n', '\r', '\n'};

  /**
   * A complete response.
   *
   * @param consumed bytes of the buffer it took
   * @param keepAlive false when the server will close the connection
   */
  record Response(
      int status, String body, List<String> setCookies, int consumed, boolean keepAlive) {}

  private ResponseReader() {}

  /** The response in {@code bytes[0, length)}, or null when more bytes are needed. */
  static Response parse(byte[] bytes, int length) {
    int headerEnd = indexOf(bytes, length, HEADER_END, 0);
    if (headerEnd < 0) {
      return null;
    }
    String[] lines = new String(bytes, 0, headerEnd, StandardCharsets.ISO_8859_1).split("\r\n");
    String[] statusLine = lines[0].split(" ", 3);
    if (statusLine.length < 2 || !statusLine[0].startsWith("HTTP/1.")) {
      throw new IllegalStateException("not an HTTP/1.x status line: " + lines[0]);
    }
    int status = Integer.parseInt(statusLine[1]);
    long contentLength = -1;
    boolean chunked = false;
    boolean keepAlive = true;
    List<String> cookies = new ArrayList<>(2);
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon < 0) {
        continue;
      }
      String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
      String value = lines[i].substring(colon + 1).trim();
      switch (name) {
        case "content-length" -> contentLength = Long.parseLong(value);
        case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
        case "set-cookie" -> cookies.add(value);
        case "connection" -> keepAlive = !value.equalsIgnoreCase("close");
        default -> {}
      }
    }
    int bodyStart = headerEnd + HEADER_END.length;
    if (chunked) {
      return chunked(bytes, length, bodyStart, status, cookies, keepAlive);
    }
    if (contentLength < 0) {
      throw new IllegalStateException("a response without Content-Length or chunks: " + lines[0]);
    }
    if (length - bodyStart < contentLength) {
      return null;
    }
    String body = new String(bytes, bodyStart, (int) contentLength, StandardCharsets.UTF_8);
    return new Response(status, body, cookies, bodyStart + (int) contentLength, keepAlive);
  }

  private static Response chunked(
      byte[] bytes, int length, int start, int status, List<String> cookies, boolean keepAlive) {
    StringBuilder body = new StringBuilder();
    int at = start;
    while (true) {
      int lineEnd = indexOf(bytes, length, HEADER_END, at, 2);
      if (lineEnd < 0) {
        return null;
      }
      String sizeField = new String(bytes, at, lineEnd - at, StandardCharsets.ISO_8859_1);
      int semicolon = sizeField.indexOf(';');
      int size =
          Integer.parseInt(
              (semicolon < 0 ? sizeField : sizeField.substring(0, semicolon)).trim(), 16);
      at = lineEnd + 2;
      if (size == 0) {
        // No trailers from the gateway: the last chunk is followed by one empty line.
        if (length - at < 2) {
          return null;
        }
        return new Response(status, body.toString(), cookies, at + 2, keepAlive);
      }
      if (length - at < size + 2) {
        return null;
      }
      body.append(new String(bytes, at, size, StandardCharsets.UTF_8));
      at += size + 2;
    }
  }

  private static int indexOf(byte[] bytes, int length, byte[] needle, int from) {
    return indexOf(bytes, length, needle, from, needle.length);
  }

  /** Where the first {@code needleLength} bytes of {@code needle} start, from {@code from}; -1. */
  private static int indexOf(byte[] bytes, int length, byte[] needle, int from, int needleLength) {
    outer:
    for (int i = from; i <= length - needleLength; i++) {
      for (int j = 0; j < needleLength; j++) {
        if (bytes[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
