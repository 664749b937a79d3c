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
import java.util.ArrayDeque;
import java.util.PriorityQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.HdrHistogram.Histogram;

/**
 * New visitors arriving at a fixed rate whatever the gateway answers (an open loop), each then
 * polling its status as the waiting page does: again after the {@code Retry-After} the waiting
 * answer gives, with its ticket, until it is let in or gone. One selector thread; requests share up
 * to {@code maxConnections} keep-alive connections (one per visitor would run the loopback's
 * ephemeral ports out within seconds), and a request that finds none free waits in the tool. Every
 * latency runs from the moment the request was due, not when a connection took it, so a gateway
 * that falls behind is charged for the wait it causes. A request not answered 10 s after it was due
 * is a timeout, sent or not.
 */
final class OpenLoop {

  /** An open loop whose newcomers join the line of {@code item}. */
  @FunctionalInterface
  interface Factory {
    OpenLoop on(int item);
  }

  private static final long TIMEOUT_NANOS = Lines.TIMEOUT.toNanos();
  private static final long EXPIRY_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
  private static final Pattern POLL_AFTER = Pattern.compile("\"pollAfterSeconds\":(\\d+)");

  /** A request due at {@code due} (System.nanoTime): a join when {@code ticket} is null. */
  private record Request(long due, String ticket) {
    boolean join() {
      return ticket == null;
    }
  }

  /** What one step measured: latencies in microseconds from when each request was due. */
  static final class Result {
    final Histogram joins = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
    final Histogram polls = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
    long joinsDue;
    long joinErrors;
    long pollErrors;
    long atOnce;
    long admittedAfterWaiting;
    long pollsAsked;
    long pollAfterSum;
    String firstError;

    long errors() {
      return joinErrors + pollErrors;
    }

    private void error(Request request, String what) {
      if (request.join()) {
        joinErrors++;
      } else {
        pollErrors++;
      }
      if (firstError == null) {
        firstError = what.length() > 160 ? what.substring(0, 160) + "…" : what;
      }
    }
  }

  private final InetSocketAddress address;
  private final String host;
  private final String joinPath;
  private final String statusPath;
  private final int maxConnections;
  private final ArrayDeque<Request> ready = new ArrayDeque<>();
  private final PriorityQueue<Request> polls =
      new PriorityQueue<>((a, b) -> Long.compare(a.due, b.due));
  private final ArrayDeque<SelectionKey> idle = new ArrayDeque<>();
  private int open;
  private int inFlight;
  private long lastExpiry;

  OpenLoop(InetSocketAddress address, String joinPath, String statusPath, int maxConnections) {
    this.address = address;
    this.host = address.getHostString() + ":" + address.getPort();
    this.joinPath = joinPath;
    this.statusPath = statusPath;
    this.maxConnections = maxConnections;
  }

  /**
   * Sends {@code perSecond} new visitors a second for {@code seconds}, with the polls of those who
   * wait for {@code hold} seconds more, and then waits for the answers still due (at most the
   * timeout). Visitors of this step do not poll after it.
   */
  Result run(int perSecond, int seconds, int hold) {
    Result result = new Result();
    long start = System.nanoTime();
    long arrivals = (long) perSecond * seconds;
    long end = start + TimeUnit.SECONDS.toNanos(seconds + hold);
    try (Selector selector = Selector.open()) {
      long started = 0;
      while (true) {
        long now = System.nanoTime();
        long due = Math.min(arrivals, (now - start) * perSecond / 1_000_000_000L + 1);
        for (; started < due; started++) {
          ready.add(new Request(start + started * 1_000_000_000L / perSecond, null));
        }
        while (now < end && !polls.isEmpty() && polls.peek().due <= now) {
          ready.add(polls.poll());
        }
        expireWaiting(now, result);
        dispatch(selector, result);
        if (started == arrivals && now >= end && ready.isEmpty() && inFlight == 0) {
          break;
        }
        if (now - end > TIMEOUT_NANOS + TimeUnit.SECONDS.toNanos(1)) {
          break;
        }
        selector.select(1);
        for (SelectionKey key : selector.selectedKeys()) {
          handle(key, result);
        }
        selector.selectedKeys().clear();
        if (System.nanoTime() - lastExpiry > EXPIRY_PERIOD_NANOS) {
          lastExpiry = System.nanoTime();
          expireInFlight(selector, lastExpiry, result);
        }
      }
      result.joinsDue = arrivals;
      for (SelectionKey key : selector.keys()) {
        close(key);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("the open loop's selector failed", e);
    }
    idle.clear();
    polls.clear();
    ready.clear();
    open = 0;
    inFlight = 0;
    return result;
  }

  private void dispatch(Selector selector, Result result) throws IOException {
    while (!ready.isEmpty()) {
      SelectionKey key = idle.pollFirst();
      if (key == null && open < maxConnections) {
        try {
          key = connect(selector);
        } catch (IOException e) {
          result.error(ready.poll(), "could not connect: " + e);
          continue;
        }
      }
      if (key == null) {
        return;
      }
      Connection c = (Connection) key.attachment();
      c.request = ready.poll();
      inFlight++;
      if (c.connected) {
        send(key, c, result);
      }
    }
  }

  private SelectionKey connect(Selector selector) throws IOException {
    SocketChannel channel = SocketChannel.open();
    try {
      channel.configureBlocking(false);
      channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
      Connection c = new Connection();
      boolean connected = channel.connect(address);
      c.connected = connected;
      SelectionKey key =
          channel.register(selector, connected ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT, c);
      open++;
      return key;
    } catch (IOException e) {
      channel.close();
      throw e;
    }
  }

  private void handle(SelectionKey key, Result result) {
    Connection c = (Connection) key.attachment();
    try {
      if (key.isValid() && key.isConnectable()) {
        ((SocketChannel) key.channel()).finishConnect();
        c.connected = true;
        key.interestOps(SelectionKey.OP_READ);
        if (c.request != null) {
          send(key, c, result);
        }
      } else if (key.isValid() && key.isReadable()) {
        read(key, c, result);
      }
    } catch (IOException | RuntimeException e) {
      fail(key, result, e.toString());
    }
  }

  private void send(SelectionKey key, Connection c, Result result) throws IOException {
    Request r = c.request;
    String request =
        r.join()
            ? "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: application/json\r\nUser-Agent: anteroom-flash\r\n\r\n"
                .formatted(joinPath, host)
            : "GET %s HTTP/1.1\r\nHost: %s\r\nAccept: application/json\r\nUser-Agent: anteroom-flash\r\nCookie: %s=%s\r\n\r\n"
                .formatted(statusPath, host, Answer.TICKET_COOKIE, r.ticket);
    ByteBuffer out = ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII));
    ((SocketChannel) key.channel()).write(out);
    if (out.hasRemaining()) {
      fail(key, result, "the socket took only part of a request");
    }
  }

  private void read(SelectionKey key, Connection c, Result result) throws IOException {
    ByteBuffer buffer = c.buffer;
    if (!buffer.hasRemaining()) {
      c.buffer = ByteBuffer.allocate(buffer.capacity() * 2).put(buffer.flip());
      buffer = c.buffer;
    }
    if (((SocketChannel) key.channel()).read(buffer) < 0) {
      throw new IOException("the gateway closed the connection");
    }
    ResponseReader.Response response = ResponseReader.parse(buffer.array(), buffer.position());
    if (response == null) {
      return;
    }
    buffer.clear();
    Request r = c.request;
    c.request = null;
    inFlight--;
    long now = System.nanoTime();
    answered(r, response, now, result);
    if (response.keepAlive()) {
      idle.add(key);
    } else {
      close(key);
    }
  }

  private void answered(Request r, ResponseReader.Response response, long now, Result result) {
    long micros = TimeUnit.NANOSECONDS.toMicros(now - r.due);
    (r.join() ? result.joins : result.polls).recordValue(Math.min(micros, 60_000_000L));
    Answer answer = Answer.of(response.status(), response.body(), response.setCookies());
    String state = Answer.state(response.body());
    if (answer.kind() == Answer.Kind.NON_2XX) {
      result.error(r, "HTTP " + response.status() + " " + response.body());
    } else if ("waiting".equals(state) || "queued".equals(state)) {
      String ticket = r.join() ? answer.ticket() : r.ticket;
      if (ticket == null) {
        result.error(r, "a waiting answer without a ticket");
        return;
      }
      long after = Math.max(1, Answer.number(POLL_AFTER, response.body()));
      result.pollsAsked++;
      result.pollAfterSum += after;
      polls.add(new Request(now + TimeUnit.SECONDS.toNanos(after), ticket));
    } else if (r.join()) {
      result.atOnce++;
    } else if ("admitted".equals(state)) {
      result.admittedAfterWaiting++;
    } else {
      result.error(r, "state " + state + ": " + response.body());
    }
  }

  /** Requests the tool could not send within the timeout of their due time. */
  private void expireWaiting(long now, Result result) {
    while (!ready.isEmpty() && now - ready.peek().due > TIMEOUT_NANOS) {
      result.error(ready.poll(), "waited in the tool for a connection longer than the timeout");
    }
  }

  private void expireInFlight(Selector selector, long now, Result result) {
    for (SelectionKey key : selector.keys().toArray(SelectionKey[]::new)) {
      Connection c = (Connection) key.attachment();
      if (key.isValid()
          && c.request != null
          && c.connected
          && now - c.request.due > TIMEOUT_NANOS) {
        fail(key, result, "no answer within " + Lines.TIMEOUT.toSeconds() + " s");
      }
    }
  }

  private void fail(SelectionKey key, Result result, String what) {
    Connection c = (Connection) key.attachment();
    if (c.request != null) {
      result.error(c.request, what);
      c.request = null;
      inFlight--;
    }
    idle.remove(key);
    close(key);
  }

  private void close(SelectionKey key) {
    if (key.isValid()) {
      open--;
    }
    key.cancel();
    try {
      key.channel().close();
    } catch (IOException ignored) {
      // A broken connection may fail to close too; it is gone either way.
    }
  }

  /** A connection's request in flight (null when idle) and its read buffer. */
  private static final class Connection {
    Request request;
    boolean connected;
    ByteBuffer buffer = ByteBuffer.allocate(4096);
  }
}
