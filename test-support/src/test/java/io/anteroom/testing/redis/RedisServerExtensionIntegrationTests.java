package io.anteroom.testing.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

// The tests run in order: each checks what the extension did about the test before it.
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisServerExtensionIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  private static int sharedPort;
  private static RedisServer perTestServer;

  @Test
  @Order(1)
  void startsOneServerBeforeAllTests() {
    sharedPort = redis.port();

    assertThat(redis.server().isRunning()).isTrue();
    assertThat(redis.uri()).isEqualTo("redis://" + redis.host() + ":" + sharedPort);
    redis.server().command("SET", "left-behind", "1");
  }

  @Test
  @Order(2)
  void flushesValuesTheTestBeforeLeft() {
    assertThat(redis.server().command("GET", "left-behind")).isNull();
    assertThat(redis.port()).isEqualTo(sharedPort);

    redis.server().kill();
  }

  @Test
  @Order(3)
  void restartsAServerTheTestBeforeKilled() {
    assertThat(redis.server().isRunning()).isTrue();
    assertThat(redis.port()).isEqualTo(sharedPort);

    redis.server().pause();
  }

  @Test
  @Order(4)
  void resumesAServerTheTestBeforePaused() {
    assertThat(redis.server().isPaused()).isFalse();
    assertThat(redis.server().command("PING")).isEqualTo("PONG");

    redis.server().stop();
  }

  @Test
  @Order(5)
  void restartsAServerTheTestBeforeStopped() {
    assertThat(redis.server().command("PING")).isEqualTo("PONG");
  }

  @Nested
  @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
  class OnAnInstanceField {

    @RegisterExtension
    final RedisServerExtension own =
        RedisServerExtension.create(builder -> builder.arg("maxmemory-policy", "allkeys-lru"));

    @Test
    @Order(1)
    void startsAServerForTheTestWithTheCustomizedSettings() {
      perTestServer = own.server();

      assertThat(own.port()).isNotEqualTo(redis.port());
      assertThat(own.server().command("CONFIG", "GET", "maxmemory-policy"))
          .isEqualTo("maxmemory-policy\nallkeys-lru");
    }

    @Test
    @Order(2)
    void closedTheServerOfTheTestBefore() {
      assertThat(own.server()).isNotSameAs(perTestServer);
      assertThat(perTestServer.isRunning()).isFalse();
      assertThat(perTestServer.logFile()).doesNotExist();
    }
  }
}
