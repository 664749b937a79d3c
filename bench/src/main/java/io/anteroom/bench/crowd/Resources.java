package io.anteroom.bench.crowd;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Everything the run started, closed newest first (the gateway before the Redis it uses), once,
 * whether the run ends, fails or is interrupted: {@link CrowdBench} also closes it from a shutdown
 * hook.
 */
final class Resources implements AutoCloseable {

  private final Deque<AutoCloseable> open = new ArrayDeque<>();

  synchronized <T extends AutoCloseable> T add(T resource) {
    open.push(resource);
    return resource;
  }

  @Override
  public synchronized void close() {
    while (!open.isEmpty()) {
      try {
        open.pop().close();
      } catch (Exception e) {
        System.err.println("crowd: could not stop " + e);
      }
    }
  }
}
