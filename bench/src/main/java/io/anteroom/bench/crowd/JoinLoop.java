package io.anteroom.bench.crowd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Sends {@code count} identical GETs over {@code connections} keep-alive connections from one
 * selector thread, each connection sending its next request as soon as its answer is in. A small
 * hand-written HTTP/1.1 client, because a general one costs the shared CPUs more per request than
 * the gateway does, and would set the pace instead of it. A connection that fails or times out
 * records that request's failure and is replaced.
 */
final class JoinLoop {

  private static final long TIMEOUT_NANOS = Lines.TIMEOUT.toNanos();
  private static final long EXPIRY_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  private final InetSocketAddress address;
  private final byte[] request;
  private final JoinLog log;
  private int nextIndex;
  private int completed;
  private long lastExpiry = System.nanoTime();

  JoinLoop(InetSocketAddress address, String pathAndQuery, JoinLog log) {
    this.address = address;
    String host = address.getHostString() + ":" + address.getPort();
    this.request =
        "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: application/json\r\nUser-Agent: anteroom-crowd\r\n\r\n"
            .formatted(pathAndQuery, host)
            .getBytes(StandardCharsets.US_ASCII);
    this.log = log;
  }

  /** Runs until every request has been answered or has failed. */
  void run(int connections) {
    try (Selector selector = Selector.open()) {
      for (int c = 0; c < Math.min(connections, log.size()); c++) {
        open(selector);
      }
      while (completed < log.size()) {
        selector.select(100);
        for (SelectionKey key : selector.selectedKeys()) {
          handle(selector, key);
        }
        selector.selectedKeys().clear();
        expire(selector);
      }
      for (SelectionKey key : selector.keys()) {
        closeQuietly(key);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("the join loop's selector failed", e);
    }
  }

  private void open(Selector selector) throws IOException {
    if (nextIndex >= log.size()) {
      return;
    }
    SocketChannel channel = SocketChannel.open();
    channel.configureBlocking(false);
    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
    Connection connection = new Connection(nextIndex++);
    if (channel.connect(address)) {
      channel.register(selector, SelectionKey.OP_READ, connection);
      send(channel, connection);
    } else {
      channel.register(selector, SelectionKey.OP_CONNECT, connection);
    }
  }

  private void handle(Selector selector, SelectionKey key) throws IOException {
    Connection connection = (Connection) key.attachment();
    SocketChannel channel = (SocketChannel) key.channel();
    try {
      if (key.isValid() && key.isConnectable() && channel.finishConnect()) {
        key.interestOps(SelectionKey.OP_READ);
        send(channel, connection);
      } else if (key.isValid() && key.isReadable()) {
        read(selector, key, channel, connection);
      }
    } catch (IOException | RuntimeException e) {
      fail(selector, key, Answer.Kind.SOCKET_ERROR, e);
    }
  }

  private void read(Selector selector, SelectionKey key, SocketChannel channel, Connection c)
      throws IOException {
    ByteBuffer buffer = c.buffer;
    if (!buffer.hasRemaining()) {
      c.buffer = ByteBuffer.allocate(buffer.capacity() * 2).put(buffer.flip());
      buffer = c.buffer;
    }
    if (channel.read(buffer) < 0) {
      throw new IOException("the gateway closed the connection before answering");
    }
    ResponseReader.Response response = ResponseReader.parse(buffer.array(), buffer.position());
    if (response == null) {
      return;
    }
    Answer answer = Answer.of(response.status(), response.body(), response.setCookies());
    log.record(c.index, System.nanoTime(), answer);
    completed++;
    buffer.clear();
    if (!response.keepAlive()) {
      closeQuietly(key);
      open(selector);
    } else if (nextIndex < log.size()) {
      c.index = nextIndex++;
      send(channel, c);
    } else {
      closeQuietly(key);
    }
  }

  // The request is under 200 bytes: one write of a fresh connection's empty send buffer takes it.
  private void send(SocketChannel channel, Connection connection) throws IOException {
    log.sent[connection.index] = System.nanoTime();
    ByteBuffer out = ByteBuffer.wrap(request);
    channel.write(out);
    if (out.hasRemaining()) {
      throw new IOException("the socket took only part of a request");
    }
  }

  private void expire(Selector selector) throws IOException {
    long now = System.nanoTime();
    if (now - lastExpiry < EXPIRY_PERIOD_NANOS) {
      return;
    }
    lastExpiry = now;
    for (SelectionKey key : selector.keys().toArray(SelectionKey[]::new)) {
      Connection c = (Connection) key.attachment();
      if (key.isValid() && c.index >= 0 && now - log.sent[c.index] > TIMEOUT_NANOS) {
        fail(selector, key, Answer.Kind.TIMEOUT, null);
      }
    }
  }

  private void fail(Selector selector, SelectionKey key, Answer.Kind kind, Exception error)
      throws IOException {
    Connection c = (Connection) key.attachment();
    if (c.index >= 0 && log.answers[c.index] == null) {
      log.sent[c.index] = log.sent[c.index] == 0 ? System.nanoTime() : log.sent[c.index];
      log.record(c.index, System.nanoTime(), Answer.failed(kind, 0));
      completed++;
      log.noteFailure(
          error != null ? error.toString() : kind + " after " + Lines.TIMEOUT.toSeconds() + " s");
    }
    c.index = -1;
    closeQuietly(key);
    open(selector);
  }

  private static void closeQuietly(SelectionKey key) {
    key.cancel();
    try {
      key.channel().close();
    } catch (IOException ignored) {
      // Closing a broken connection may fail too; it is replaced either way.
    }
  }

  /** A connection's request in flight (index into the log, -1 when none) and its read buffer. */
  private static final class Connection {
    int index;
    ByteBuffer buffer = ByteBuffer.allocate(4096);

    Connection(int index) {
      this.index = index;
    }
  }
}
