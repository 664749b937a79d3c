package io.anteroom.queue.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.anteroom.testing.FreePorts;
import io.anteroom.testing.redis.RedisServer;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Starting without Redis: commands fail at once until Redis is reached in the background, then work
 * without any action from the caller.
 */
class DeferredRedisConnectorIntegrationTests {

  @Test
  void commandsFailPromptlyUntilRedisStartsThenWork() {
    int port = FreePorts.pick();
    RedisProperties properties =
        new RedisProperties(
            "redis://127.0.0.1:" + port, Duration.ofMillis(500), Duration.ofSeconds(1), 1000);
    AtomicInteger attempts = new AtomicInteger();
    try (DeferredRedisConnector redis =
        DeferredRedisConnector.start(
            () -> {
              attempts.incrementAndGet();
              return RedisConnector.connect(properties);
            })) {
      assertThat(redis.isConnected()).isFalse();
      long start = System.nanoTime();
      assertThatThrownBy(() -> redis.commands().get("k").toCompletableFuture().join())
          .isInstanceOf(CompletionException.class)
          .hasCauseInstanceOf(RedisConnectionException.class);
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start))
          .as("no wait for a timeout")
          .isLessThan(500);
      await().atMost(Duration.ofSeconds(10)).until(() -> attempts.get() >= 3);
      assertThat(redis.isConnected()).isFalse();

      try (RedisServer server = RedisServer.builder().port(port).start()) {
        await().atMost(Duration.ofSeconds(10)).until(redis::isConnected);
        redis.commands().set("k", "v").toCompletableFuture().join();
        assertThat(redis.commands().get("k").toCompletableFuture().join()).isEqualTo("v");
        StatefulRedisPubSubConnection<String, String> pubSub =
            redis.connectPubSub().block(Duration.ofSeconds(5));
        assertThat(pubSub.sync().ping()).isEqualTo("PONG");
        pubSub.close();
      }
    }
  }

  @Test
  void connectsAtOnceWhenRedisAnswersAtStart() {
    try (RedisServer server = RedisServer.start();
        DeferredRedisConnector redis =
            DeferredRedisConnector.start(
                () ->
                    RedisConnector.connect(
                        new RedisProperties(
                            server.uri(), Duration.ofMillis(500), Duration.ofSeconds(1), 1000)))) {
      assertThat(redis.isConnected()).isTrue();
      assertThat(redis.commands().ping().toCompletableFuture().join()).isEqualTo("PONG");
    }
  }

  @Test
  void closingStopsTheAttempts() {
    AtomicInteger attempts = new AtomicInteger();
    DeferredRedisConnector redis =
        DeferredRedisConnector.start(
            () -> {
              attempts.incrementAndGet();
              throw new RedisConnectionException("refused");
            });
    await().atMost(Duration.ofSeconds(10)).until(() -> attempts.get() >= 2);

    redis.close();
    int after = attempts.get();

    assertThat(redis.connector().block(Duration.ofSeconds(1))).isNull();
    await()
        .during(Duration.ofMillis(2500))
        .atMost(Duration.ofSeconds(3))
        .until(() -> attempts.get() <= after + 1);
  }
}
