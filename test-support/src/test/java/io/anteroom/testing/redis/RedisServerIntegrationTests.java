package io.anteroom.testing.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.anteroom.testing.FreePorts;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RedisServerIntegrationTests {

  @Test
  void startAnswersPingAndKeepsValues() {
    try (RedisServer server = RedisServer.start()) {
      assertThat(server.command("PING")).isEqualTo("PONG");
      assertThat(server.command("SET", "greeting", "héllo wörld")).isEqualTo("OK");
      assertThat(server.command("GET", "greeting")).isEqualTo("héllo wörld");
      assertThat(server.command("INCR", "counter")).isEqualTo("1");
      assertThat(server.command("DBSIZE")).isEqualTo("2");
      assertThat(server.host()).isEqualTo("127.0.0.1");
      assertThat(server.uri()).isEqualTo("redis://127.0.0.1:" + server.port());
      assertThat(server.isRunning()).isTrue();
      assertThat(server.command("INFO", "server")).contains("process_id:" + server.pid());
    }
  }

  @Test
  void commandReturnsNilAsNullAndArraysAsLines() {
    try (RedisServer server = RedisServer.start()) {
      server.command("RPUSH", "letters", "a", "b", "c");
      server.command("SET", "empty", "");

      assertThat(server.command("GET", "missing")).isNull();
      assertThat(server.command("GET", "empty")).isEmpty();
      assertThat(server.command("LRANGE", "letters", "0", "-1")).isEqualTo("a\nb\nc");
      assertThat(server.command("MGET", "missing", "empty", "letters")).isEqualTo("\n\n");
      assertThat(server.command("CONFIG", "GET", "bind")).isEqualTo("bind\n127.0.0.1");
    }
  }

  @Test
  void commandThrowsErrorReplies() {
    try (RedisServer server = RedisServer.start()) {
      assertThatThrownBy(() -> server.command("NO-SUCH-COMMAND"))
          .isInstanceOf(RedisCommandException.class)
          .hasMessageStartingWith("ERR unknown command");
      assertThat(server.command("PING")).isEqualTo("PONG");
    }
  }

  @Test
  void twoServersRunSideBySideOnDifferentPorts() {
    try (RedisServer first = RedisServer.start();
        RedisServer second = RedisServer.start()) {
      first.command("SET", "owner", "first");

      assertThat(first.port()).isNotEqualTo(second.port());
      assertThat(first.pid()).isNotEqualTo(second.pid());
      assertThat(first.logFile().getParent()).isNotEqualTo(second.logFile().getParent());
      assertThat(first.command("GET", "owner")).isEqualTo("first");
      assertThat(second.command("GET", "owner")).isNull();
    }
  }

  @Test
  void killThenRestartAnswersAgainOnSamePort() {
    try (RedisServer server = RedisServer.start()) {
      int port = server.port();
      long killedPid = server.pid();

      server.kill();
      assertThat(server.isRunning()).isFalse();
      assertThatThrownBy(() -> server.command("PING")).isInstanceOf(UncheckedIOException.class);

      server.restart();
      assertThat(server.isRunning()).isTrue();
      assertThat(server.port()).isEqualTo(port);
      assertThat(server.pid()).isNotEqualTo(killedPid);
      assertThat(server.command("PING")).isEqualTo("PONG");
    }
  }

  @Test
  void restartFailsWithTheServerLogWhenThePortWasTakenMeanwhile() throws Exception {
    try (RedisServer server = RedisServer.start()) {
      server.kill();

      try (ServerSocket squatter =
          new ServerSocket(server.port(), 1, InetAddress.getByName(server.host()))) {
        assertThatThrownBy(server::restart)
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("Address already in use");
      }

      server.restart();
      assertThat(server.command("PING")).isEqualTo("PONG");
    }
  }

  @Test
  void restartOfARunningServerStopsTheOldProcessFirst() {
    try (RedisServer server = RedisServer.start()) {
      long oldPid = server.pid();

      server.restart();

      assertThat(ProcessHandle.of(oldPid).filter(ProcessHandle::isAlive)).isEmpty();
      assertThat(server.pid()).isNotEqualTo(oldPid);
      assertThat(server.command("PING")).isEqualTo("PONG");
    }
  }

  @Test
  void stopShutsDownGracefully() throws Exception {
    try (RedisServer server = RedisServer.start()) {
      server.stop();

      assertThat(server.isRunning()).isFalse();
      assertThat(Files.readString(server.logFile())).contains("ready to exit");
    }
  }

  @Test
  void pauseMakesReadsTimeOutAndResumeAnswersAgain() {
    try (RedisServer server = RedisServer.start()) {
      server.pause();

      assertThat(server.isPaused()).isTrue();
      assertThat(server.isRunning()).isTrue();
      assertThatThrownBy(
              () -> Resp.command(server.host(), server.port(), Duration.ofMillis(200), "PING"))
          .isInstanceOf(UncheckedIOException.class)
          .hasCauseInstanceOf(SocketTimeoutException.class);

      server.resume();

      assertThat(server.isPaused()).isFalse();
      assertThat(server.command("PING")).isEqualTo("PONG");
    }
  }

  @Test
  void closeOfAPausedServerKillsItAndDeletesItsDirectory() {
    RedisServer server = RedisServer.start();
    long pid = server.pid();
    server.pause();

    server.close();

    assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).isEmpty();
    assertThat(server.logFile().getParent()).doesNotExist();
  }

  @Test
  void persistentServerKeepsKeyAcrossKillAndRestart() {
    try (RedisServer server = RedisServer.builder().persistent(true).start()) {
      server.command("SET", "order", "42");

      server.kill();
      server.restart();

      assertThat(server.command("GET", "order")).isEqualTo("42");
    }
  }

  @Test
  void persistentServerKeepsKeyAcrossStopAndRestart() {
    try (RedisServer server = RedisServer.builder().persistent(true).start()) {
      server.command("SET", "order", "42");

      server.stop();
      server.restart();

      assertThat(server.command("GET", "order")).isEqualTo("42");
    }
  }

  @Test
  void nonPersistentServerLosesKeyAcrossKillAndRestart() {
    try (RedisServer server = RedisServer.start()) {
      server.command("SET", "order", "42");

      server.kill();
      server.restart();

      assertThat(server.command("GET", "order")).isNull();
    }
  }

  @Test
  void extraArgsComeLastAndOverrideDefaults() {
    try (RedisServer server =
        RedisServer.builder()
            .arg("maxmemory-policy", "allkeys-lru")
            .args("--save", "3600", "1")
            .start()) {
      assertThat(server.command("CONFIG", "GET", "maxmemory-policy"))
          .isEqualTo("maxmemory-policy\nallkeys-lru");
      assertThat(server.command("CONFIG", "GET", "save")).isEqualTo("save\n3600 1");
    }
  }

  @Test
  void clusterEnabledServerGetsAValidBusPort() {
    try (RedisServer server = RedisServer.builder().args("--cluster-enabled", "yes").start()) {
      assertThat(server.port()).isLessThanOrEqualTo(65_535 - 10_000);
      assertThat(server.command("CLUSTER", "INFO")).contains("cluster_state:fail");
    }
  }

  @Test
  void fixedPortIsUsed() {
    int port = FreePorts.pick();

    try (RedisServer server = RedisServer.builder().port(port).start()) {
      assertThat(server.port()).isEqualTo(port);
      assertThat(server.command("PING")).isEqualTo("PONG");
    }
  }

  @Test
  void startFailureQuotesTheServerOutput() {
    RedisServer.Builder builder = RedisServer.builder().arg("no-such-directive", "1");

    assertThatThrownBy(builder::start)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("exited with code")
        .hasMessageContaining("no-such-directive");
  }

  @Test
  void binaryResolvesToAnExecutable() {
    Path binary = RedisServer.binary();

    assertThat(binary).isExecutable();
    assertThat(RedisServer.binary()).isSameAs(binary);
  }

  @Test
  void embeddedBinaryIsExtractedAndRuns() throws Exception {
    Path binary = RedisBinary.extractEmbedded();
    try {
      Process version = new ProcessBuilder(binary.toString(), "--version").start();

      assertThat(version.waitFor(10, TimeUnit.SECONDS)).isTrue();
      assertThat(version.exitValue()).isZero();
      assertThat(new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
          .startsWith("Redis server v=");
    } finally {
      Files.deleteIfExists(binary);
    }
  }

  @Test
  void embeddedBinaryMatchesTheMachine() {
    assertThat(RedisBinary.embeddedResource("Linux", "amd64"))
        .isEqualTo("redis-server-6.2.6-v5-linux-amd64");
    assertThat(RedisBinary.embeddedResource("Linux", "aarch64"))
        .isEqualTo("redis-server-6.2.7-linux-arm64");
    assertThatThrownBy(() -> RedisBinary.embeddedResource("Mac OS X", "aarch64"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(RedisBinary.OVERRIDE_PROPERTY);
  }
}
