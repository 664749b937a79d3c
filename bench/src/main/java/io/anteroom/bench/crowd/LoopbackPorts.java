package io.anteroom.bench.crowd;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

/** Loopback ports free when asked, never the same one twice in a run. */
final class LoopbackPorts {

  // The demo's ports and the usual Redis port: never used here, even when free.
  private static final Set<Integer> RESERVED = Set.of(6379, 6380, 8080, 8081, 8082, 8090);

  private final Set<Integer> handedOut = new HashSet<>(RESERVED);

  synchronized int pick() {
    for (int attempt = 0; attempt < 100; attempt++) {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        if (handedOut.add(socket.getLocalPort())) {
          return socket.getLocalPort();
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot bind a loopback port", e);
      }
    }
    throw new IllegalStateException("found no free loopback port");
  }
}
