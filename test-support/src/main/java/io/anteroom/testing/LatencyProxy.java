package io.anteroom.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntSupplier;

/**
 * A TCP proxy on 127.0.0.1 that holds back every chunk the server sends for a delay that can be
 * changed at any time: a slow server, such as a Redis answering in 300 ms, without slowing its
 * client's requests or limiting how many are in flight. Each chunk is due its delay after it was
 * read, so chunks read together arrive together; a chunk keeps the delay it was read under.
 *
 * <pre>{@code
 * LatencyProxy proxy = LatencyProxy.to(redis::port);   // redis://127.0.0.1:<proxy.port()>
 * proxy.delay(Duration.ofMillis(300));
 * }</pre>
 *
 * <p>Every connection accepted opens one to the server's port, read from the supplier at that
 * moment (so the proxy can be made before the server has a port). Its threads are daemon threads
 * and end with their connection; {@link #close()} closes the listening socket and every connection.
 */
public final class LatencyProxy implements AutoCloseable {

  private static final int CHUNK = 16 * 1024;

  private final ServerSocket listener;
  private final IntSupplier serverPort;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final AtomicInteger connections = new AtomicInteger();
  private final Set<Replies> replies = ConcurrentHashMap.newKeySet();
  private volatile long delayNanos;

  private LatencyProxy(ServerSocket listener, IntSupplier serverPort) {
    this.listener = listener;
    this.serverPort = serverPort;
  }

  /** A proxy, listening from now on a free port, to the port {@code serverPort} gives. */
  public static LatencyProxy to(IntSupplier serverPort) {
    LatencyProxy proxy;
    try {
      // Port 0: the system picks a free one at the moment of binding, so nothing can take it first.
      proxy =
          new LatencyProxy(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), serverPort);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot listen on 127.0.0.1", e);
    }
    daemon("latency-proxy-accept-" + proxy.port(), proxy::accept).start();
    return proxy;
  }

  /** The port the proxy listens on. */
  public int port() {
    return listener.getLocalPort();
  }

  /** The address of the proxy as a Redis URI. */
  public String redisUri() {
    return "redis://127.0.0.1:" + port();
  }

  /** Holds back what the server sends from now on for {@code delay}; zero forwards at once. */
  public void delay(Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("delay must not be negative: " + delay);
    }
    delayNanos = delay.toNanos();
  }

  /** The delay in force. */
  public Duration delay() {
    return Duration.ofNanos(delayNanos);
  }

  /** Client connections open through the proxy now. */
  public int connections() {
    return connections.get();
  }

  /** Chunks from the server read and not yet forwarded: replies held back right now. */
  public int held() {
    return replies.stream().mapToInt(Replies::count).sum();
  }

  @Override
  public void close() {
    closeQuietly(listener);
    sockets.forEach(LatencyProxy::closeQuietly);
  }

  private void accept() {
    while (!listener.isClosed()) {
      Socket client;
      try {
        client = listener.accept();
      } catch (IOException closed) {
        return;
      }
      if (listener.isClosed()) {
        // An accept blocked when close() came can still take one more connection: refuse it.
        closeQuietly(client);
        return;
      }
      Socket server;
      try {
        server = new Socket(InetAddress.getLoopbackAddress(), serverPort.getAsInt());
      } catch (IOException | RuntimeException refused) {
        // As a server that is down: the client sees its connection closed.
        closeQuietly(client);
        continue;
      }
      open(client, server);
    }
  }

  private void open(Socket client, Socket server) {
    sockets.add(client);
    sockets.add(server);
    if (listener.isClosed()) {
      // close() came after the accept and may have missed these two.
      closeQuietly(client);
      closeQuietly(server);
      sockets.remove(client);
      sockets.remove(server);
      return;
    }
    connections.incrementAndGet();
    AtomicInteger ends = new AtomicInteger();
    Runnable end =
        () -> {
          closeQuietly(client);
          closeQuietly(server);
          sockets.remove(client);
          sockets.remove(server);
          if (ends.incrementAndGet() == 1) {
            connections.decrementAndGet();
          }
        };
    Replies replies = new Replies();
    this.replies.add(replies);
    String name = "latency-proxy-" + port() + "-" + client.getPort();
    daemon(name + "-requests", () -> copy(client, server, end)).start();
    daemon(name + "-replies-in", () -> hold(server, replies)).start();
    daemon(name + "-replies-out", () -> release(replies, client, end)).start();
  }

  /** Requests go to the server as they come. */
  private static void copy(Socket from, Socket to, Runnable end) {
    byte[] buffer = new byte[CHUNK];
    try (InputStream in = from.getInputStream();
        OutputStream out = to.getOutputStream()) {
      int read;
      while ((read = in.read(buffer)) >= 0) {
        out.write(buffer, 0, read);
        out.flush();
      }
    } catch (IOException closed) {
      // Either side went away: the connection ends.
    } finally {
      end.run();
    }
  }

  /** Replies are stamped with the moment they are due, then queued. */
  private void hold(Socket server, Replies replies) {
    byte[] buffer = new byte[CHUNK];
    try (InputStream in = server.getInputStream()) {
      int read;
      while ((read = in.read(buffer)) >= 0) {
        replies.queue.add(new Chunk(System.nanoTime() + delayNanos, Arrays.copyOf(buffer, read)));
      }
    } catch (IOException closed) {
      // The connection ends.
    } finally {
      replies.queue.add(Chunk.END);
    }
  }

  /** Each reply goes to the client once it is due, in order. */
  private void release(Replies replies, Socket client, Runnable end) {
    try (OutputStream out = client.getOutputStream()) {
      while (true) {
        Chunk chunk = replies.queue.take();
        if (chunk == Chunk.END) {
          return;
        }
        replies.inHand.set(1);
        long wait;
        while ((wait = chunk.due() - System.nanoTime()) > 0) {
          LockSupport.parkNanos(wait);
        }
        out.write(chunk.bytes());
        out.flush();
        replies.inHand.set(0);
      }
    } catch (IOException closed) {
      // The connection ends.
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
    } finally {
      this.replies.remove(replies);
      end.run();
    }
  }

  private static Thread daemon(String name, Runnable task) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    return thread;
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception ignored) {
      // Closing for good: nothing to do about it.
    }
  }

  private record Chunk(long due, byte[] bytes) {
    static final Chunk END = new Chunk(0, new byte[0]);
  }

  /** One connection's replies read from the server and not yet written to the client. */
  private static final class Replies {
    final BlockingQueue<Chunk> queue = new LinkedBlockingQueue<>();
    final AtomicInteger inHand = new AtomicInteger();

    int count() {
      return (int) queue.stream().filter(c -> c != Chunk.END).count() + inHand.get();
    }
  }
}
