package io.anteroom.bench;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Pipelines async calls with at most {@link #LIMIT} outstanding, so a phase of thousands of
 * commands runs quickly without flooding the connection's request queue.
 */
final class InFlight {

  static final int LIMIT = 256;

  private final Semaphore permits = new Semaphore(LIMIT);
  private final AtomicReference<Throwable> failure = new AtomicReference<>();

  /** One call per visitor, pipelined; returns how many visitors once every call has answered. */
  static long each(List<String> visitors, Function<String, CompletionStage<?>> call) {
    InFlight pipeline = new InFlight();
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
              failure.compareAndSet(null, error);
              permits.release();
            });
  }

  /** Waits for every submitted call and fails if any of them failed. */
  void awaitAll() {
    permits.acquireUninterruptibly(LIMIT);
    permits.release(LIMIT);
    if (failure.get() != null) {
      throw new IllegalStateException("a pipelined call failed", failure.get());
    }
  }
}
