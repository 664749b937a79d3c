package io.anteroom.queue;

import io.anteroom.queue.policy.RoomPolicy;
import java.util.function.Predicate;
import java.util.function.Supplier;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The admission calls of one tick on a line or a room (and its expiry calls): a call that did a
 * whole batch of work, admitting visitors or finishing those who left, is followed by another, up
 * to {@value #MAX_CALLS}. Small batches keep each script call short (Redis serves nobody else
 * meanwhile) without capping the rate at one batch per tick, and those who left (one-shot arrivals
 * that never poll, closed tabs) take work but no admissions: however many of them stand among those
 * still waiting, the line moves at its rate.
 */
public final class AdmitBatches {

  /** Most admission calls for one line or room in one tick. */
  public static final int MAX_CALLS = 20;

  private AdmitBatches() {}

  /** The results of {@code call} made until one did not fill its batch ({@code filled}). */
  public static <T> Flux<T> of(Supplier<Mono<T>> call, Predicate<T> filled) {
    return call.get()
        .expand(result -> filled.test(result) ? call.get() : Mono.empty())
        .take(MAX_CALLS);
  }

  /** The admission calls of one tick on {@code queue}'s line in {@code store}. */
  public static Flux<AdmitResult> of(QueueStore store, QueueId queue, RoomPolicy policy) {
    return of(
        () -> store.admit(queue, policy),
        result -> result.admitted() + result.abandoned() >= policy.admitBatch());
  }
}
