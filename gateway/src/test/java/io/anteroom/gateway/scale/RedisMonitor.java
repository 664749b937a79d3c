package io.anteroom.gateway.scale;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Everything a Redis server executes, as {@code MONITOR} streams it: each client command and, after
 * a script's own line, every command the script ran (source {@code lua}), in the order Redis ran
 * them. Lines are kept raw and parsed after the run, so reading keeps up with the server.
 */
final class RedisMonitor implements AutoCloseable {

  /** One executed command: who sent it ({@code lua} for a script) and its words. */
  record Command(String source, List<String> words) {

    String name() {
      return words.get(0).toUpperCase(java.util.Locale.ROOT);
    }

    String arg(int i) {
      return words.get(i);
    }

    int size() {
      return words.size();
    }
  }

  private final Socket socket;
  private final ConcurrentLinkedQueue<String> lines = new ConcurrentLinkedQueue<>();
  private final Thread reader;

  RedisMonitor(String host, int port) {
    try {
      this.socket = new Socket(host, port);
      socket.getOutputStream().write("MONITOR\r\n".getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      BufferedReader in =
          new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8), 1 << 16);
      String ok = in.readLine();
      if (!"+OK".equals(ok)) {
        throw new IllegalStateException("MONITOR refused: " + ok);
      }
      this.reader = new Thread(() -> read(in), "redis-monitor");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    reader.setDaemon(true);
    reader.start();
  }

  private void read(BufferedReader in) {
    try {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        lines.add(line);
      }
    } catch (IOException e) {
      // closed
    }
  }

  /** Stops reading and parses what was executed until now. */
  List<Command> stop() {
    close();
    try {
      reader.join(5_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    List<Command> commands = new ArrayList<>(lines.size());
    for (String line : lines) {
      commands.add(parse(line));
    }
    return commands;
  }

  /** {@code +1701590000.539871 [0 lua] "ZADD" "key" "5" "a"} to its source and words. */
  static Command parse(String line) {
    int open = line.indexOf('[');
    int close = line.indexOf(']', open);
    String[] client = line.substring(open + 1, close).split(" ");
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    for (int i = close + 1; i < line.length(); i++) {
      char c = line.charAt(i);
      if (word == null) {
        if (c == '"') {
          word = new StringBuilder();
        }
      } else if (c == '\\') {
        char next = line.charAt(++i);
        if (next == 'x') {
          word.append((char) Integer.parseInt(line.substring(i + 1, i + 3), 16));
          i += 2;
        } else {
          word.append(
              switch (next) {
                case 'n' -> '\n';
                case 'r' -> '\r';
                case 't' -> '\t';
                default -> next;
              });
        }
      } else if (c == '"') {
        words.add(word.toString());
        word = null;
      } else {
        word.append(c);
      }
    }
    return new Command(client[client.length - 1], words);
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }
}
