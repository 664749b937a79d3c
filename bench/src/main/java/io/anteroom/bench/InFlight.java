package io.anteroom.bench;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Pipelines async calls with at most a fixed number outstanding, so a phase of thousands of
 * commands runs quickly without flooding the connection's request queue.
 */
final class InFlight {

  private final int limit;
  private final Semaphore permits;
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  InFlight(int limit) {
    this.limit = limit;
    this.permits = new Semaphore(limit);
  }

  /** One call per visitor, pipelined; returns how many visitors once every call has answered. */
  static long each(List<String> visitors, int limit, Function<String, CompletionStage<?>> call) {
    InFlight pipeline = new InFlight(limit);
    visitors.forEach(visitor -> pipeline.submit(() -> call.apply(visitor)));
    pipeline.awaitAll();
    return visitors.size();
  }

  /** Sends the call once fewer than the limit are outstanding. */
  void submit(Supplier<? extends CompletionStage<?>> call) {
    permits.acquireUninterruptibly();
    call.get()
        .whenComplete(
            (reply, error) -> {
              if (error != null) {
                failure.compareAndSet(null, error);
              }
              permits.release();
            });
  }

  /** Waits for every submitted call and fails if any of them failed. */
  void awaitAll() {
    permits.acquireUninterruptibly(limit);
    permits.release(limit);
    Throwable error = failure.get();
    if (error != null) {
      throw new IllegalStateException("a pipelined call failed: " + error.getMessage(), error);
    }
  }
}
