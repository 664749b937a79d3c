package io.anteroom.bench.micro;

import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Mono;

/**
 * Subscribes to a filter's answer and requires it to have finished by the time {@code subscribe}
 * returns. With a no-op downstream chain, an answer that is still pending waited on something
 * outside the gateway, such as a Redis command.
 */
final class Synchronously {

  private Synchronously() {}

  static void complete(Mono<Void> answer) {
    Probe probe = new Probe();
    answer.subscribe(probe);
    if (probe.error != null) {
      throw new IllegalStateException("the filter failed", probe.error);
    }
    if (!probe.done) {
      throw new IllegalStateException(
          "the filter did not decide at once: it waited on something, such as Redis");
    }
  }

  private static final class Probe implements CoreSubscriber<Void> {
    boolean done;
    Throwable error;

    @Override
    public void onSubscribe(Subscription subscription) {
      subscription.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(Void value) {}

    @Override
    public void onError(Throwable throwable) {
      error = throwable;
      done = true;
    }

    @Override
    public void onComplete() {
      done = true;
    }
  }
}
