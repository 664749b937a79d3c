package io.anteroom.gateway.scale;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/** Reads the size of a running set every few milliseconds on a connection of its own. */
final class RunningSampler implements AutoCloseable {

  private final RedisClient client;
  private final RedisCommands<String, String> redis;
  private final String key;
  private final AtomicInteger max = new AtomicInteger();
  private final AtomicInteger samples = new AtomicInteger();
  private final Thread thread;
  private volatile boolean sampling = true;

  RunningSampler(String redisUri, String key) {
    this.client = RedisClient.create(redisUri);
    this.redis = client.connect().sync();
    this.key = key;
    this.thread = new Thread(this::sample, "running-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  private void sample() {
    while (sampling) {
      max.accumulateAndGet(redis.zcard(key).intValue(), Math::max);
      samples.incrementAndGet();
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
    }
  }

  int max() {
    return max.get();
  }

  int samples() {
    return samples.get();
  }

  @Override
  public void close() {
    if (sampling) {
      sampling = false;
      try {
        thread.join(5_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      client.shutdown();
    }
  }
}
