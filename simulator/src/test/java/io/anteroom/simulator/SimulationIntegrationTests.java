package io.anteroom.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.policy.PolicyParser;
import io.anteroom.queue.policy.RoomPolicy;
import io.anteroom.testing.redis.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Runs of the simulation on a real redis-server, against what the settings must give. */
class SimulationIntegrationTests {

  static RedisServer redis;
  static RedisClient client;
  static StatefulRedisConnection<String, String> connection;
  static Simulation simulation;

  @BeforeAll
  static void start() {
    redis = RedisServer.start();
    client = RedisClient.create(redis.uri());
    connection = client.connect();
    simulation = new Simulation(connection.async());
  }

  @AfterAll
  static void stop() {
    connection.close();
    client.shutdown();
    redis.close();
  }

  private static RoomPolicy policy(Map<String, String> values) {
    return PolicyParser.apply("test", RoomPolicy.DEFAULTS, values);
  }

  private static Arrivals crowd(String profile) {
    return Arrivals.profile(profile, new SplittableRandom(1));
  }

  private static Behaviour stay(String session, String patience, boolean release) {
    return new Behaviour(
        Spread.parse("--session", session), Spread.parse("--patience", patience), release);
  }

  @Test
  void aCrowdDrainsAtTheAdmissionRate() {
    Outcome run =
        simulation.run(
            "rate",
            policy(Map.of("admit-per-second", "100", "max-active", "100000")),
            crowd("crowd:1000/1s"),
            stay("5m", "never", false),
            1);
    assertThat(run.admitted()).isEqualTo(1000);
    assertThat(run.abandoned()).isZero();
    // A bucket of one second's tokens, then 100 a second: the last of 1,000 goes in near 9 s.
    assertThat(run.waitSeconds(100)).isBetween(8.0, 10.0);
    assertThat(run.waitSeconds(50)).isBetween(3.5, 5.5);
    assertThat(run.longestLine()).isBetween(800L, 950L);
    assertThat(run.emptiedAfter()).isBetween(9_000L, 11_000L);
  }

  @Test
  void theCapHoldsTheLineUntilSessionsIdleOut() {
    // Sessions of 10 s, then idle for the session-duration (1 min) and one check (6 s): a place
    // frees 76 s after its admission, so the third hundred waits about 152 s.
    Outcome run =
        simulation.run(
            "cap",
            policy(
                Map.of("admit-per-second", "1000", "max-active", "100", "session-duration", "1m")),
            crowd("crowd:300/1s"),
            stay("10s", "never", false),
            1);
    assertThat(run.admitted()).isEqualTo(300);
    assertThat(run.peakActive()).isEqualTo(100);
    assertThat(run.waitSeconds(100)).isBetween(145.0, 160.0);
  }

  @Test
  void releasedSessionsFreeTheirPlacesAtOnce() {
    Outcome run =
        simulation.run(
            "released",
            policy(
                Map.of("admit-per-second", "1000", "max-active", "100", "session-duration", "1m")),
            crowd("crowd:300/1s"),
            stay("10s", "never", true),
            1);
    assertThat(run.admitted()).isEqualTo(300);
    assertThat(run.peakActive()).isEqualTo(100);
    // Released when they leave, 10 s in: the third hundred waits about 20 s (a window late at
    // most).
    assertThat(run.waitSeconds(100)).isBetween(18.0, 24.0);
  }

  @Test
  void visitorsWhoGiveUpAreNotCountedAsAdmitted() {
    Outcome run =
        simulation.run(
            "patience",
            policy(
                Map.of("admit-per-second", "10", "max-active", "100000", "abandon-after", "30s")),
            crowd("crowd:1000/1s"),
            stay("5m", "20s", false),
            1);
    assertThat(run.admitted() + run.abandoned()).isEqualTo(run.arrived());
    // 10 a second for 20 s of patience, and the bucket's first 10: about 210 get in.
    assertThat(run.admitted()).isBetween(190L, 230L);
    assertThat(run.waitSeconds(100)).isLessThanOrEqualTo(20.0);
    // The line skips those gone past abandon-after instead of admitting them: it empties long
    // before 1,000 admissions at 10 a second (100 s).
    assertThat(run.emptiedAfter()).isLessThan(60_000L);
  }

  @Test
  void theSameSeedRunsTheSame() {
    RoomPolicy policy = policy(Map.of("admit-per-second", "50", "max-active", "200"));
    Behaviour behaviour = stay("exp:20s", "exp:30s", false);
    Outcome first = simulation.run("a", policy, crowd("poisson:40/30s"), behaviour, 5);
    Outcome second = simulation.run("b", policy, crowd("poisson:40/30s"), behaviour, 5);
    assertThat(second.admitted()).isEqualTo(first.admitted());
    assertThat(second.abandoned()).isEqualTo(first.abandoned());
    assertThat(second.waitSeconds(90)).isEqualTo(first.waitSeconds(90));
    assertThat(second.peakActive()).isEqualTo(first.peakActive());
  }
}
