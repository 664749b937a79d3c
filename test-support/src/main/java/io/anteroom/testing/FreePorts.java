package io.anteroom.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Picks loopback ports that are free at the moment of asking, for servers that must be told their
 * port before they start (redis-server, a fixed management port). Another process may still take
 * the port before the server binds it, so callers that can should retry with a new one.
 */
public final class FreePorts {

  private static final int MAX_PORT = 65_535;
  private static final int ATTEMPTS = 100;

  // Never hand out a port twice in one JVM: two servers started back to back could otherwise get
  // the same port before either has bound it.
  private static final Set<Integer> handedOut = ConcurrentHashMap.newKeySet();

  private FreePorts() {}

  /** A free port on 127.0.0.1. */
  public static int pick() {
    return pick(0);
  }

  /**
   * A free port whose partner, the port plus {@code offset}, is free and in range too; both are
   * reserved. Redis Cluster, for one, listens on such a bus port.
   */
  public static int pickWithPartner(int offset) {
    if (offset <= 0) {
      throw new IllegalArgumentException("offset must be positive: " + offset);
    }
    return pick(offset);
  }

  private static int pick(int offset) {
    for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
      int port = bindAndRelease(0);
      if (offset > 0 && !partnerFree(port + offset)) {
        continue;
      }
      if (handedOut.add(port)) {
        if (offset > 0) {
          handedOut.add(port + offset);
        }
        return port;
      }
    }
    throw new IllegalStateException("found no free port on 127.0.0.1");
  }

  private static boolean partnerFree(int partner) {
    if (partner > MAX_PORT || handedOut.contains(partner)) {
      return false;
    }
    try {
      bindAndRelease(partner);
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
