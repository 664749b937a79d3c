package io.anteroom.testing.redis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Picks loopback ports that are free at the moment of asking. Another process may still take the
 * port before redis-server binds it, so callers must be ready to retry with a new one.
 */
final class FreePorts {

  /** Redis Cluster also listens on a bus port, the data port plus this offset. */
  private static final int CLUSTER_BUS_OFFSET = 10_000;

  private static final int MAX_PORT = 65_535;
  private static final int ATTEMPTS = 100;

  // Never hand out a port twice in one JVM: two servers started back to back could otherwise get
  // the same port before either has bound it.
  private static final Set<Integer> handedOut = ConcurrentHashMap.newKeySet();

  private FreePorts() {}

  /** A free port; with {@code clusterBus}, one whose bus port is free and in range too. */
  static int pick(boolean clusterBus) {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      int port = bindAndRelease(0);
      if (clusterBus && !busPortFree(port)) {
        continue;
      }
      if (handedOut.add(port)) {
        if (clusterBus) {
          handedOut.add(port + CLUSTER_BUS_OFFSET);
        }
        return port;
      }
    }
    throw new IllegalStateException("found no free port on 127.0.0.1");
  }

  private static boolean busPortFree(int port) {
    int bus = port + CLUSTER_BUS_OFFSET;
    if (bus > MAX_PORT || handedOut.contains(bus)) {
      return false;
    }
    try {
      bindAndRelease(bus);
      return true;
    } catch (UncheckedIOException taken) {
      return false;
    }
  }

  private static int bindAndRelease(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind 127.0.0.1:" + port, e);
    }
  }
}
