package io.anteroom.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.testing.redis.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command's simulations, each on a redis-server of its own. */
class SimulateCommandIntegrationTests {

  @TempDir Path dir;

  private final SimulateRun command = new SimulateRun();

  @Test
  void comparedSettingsRunSideBySideAndLeaveEveryOtherRedisAlone() throws Exception {
    try (RedisServer live = RedisServer.start()) {
      RedisClient client = RedisClient.create(live.uri());
      try (StatefulRedisConnection<String, String> connection = client.connect()) {
        RedisCommands<String, String> redis = connection.sync();
        redis.zadd("wr:{shop}:_:waiting", 1, "someone");
        redis.hset("wr:{shop}:_:state", "seq", "1");
        redis.hset("wr:settings:shop", "admit-per-second", "5");
        Map<String, String> before = dump(redis);

        Path recording = dir.resolve("arrivals.csv");
        StringBuilder rows =
            new StringBuilder("# anteroom arrivals room=shop sample=1\nat_ms,item\n");
        for (int i = 0; i < 400; i++) {
          rows.append(1_000_000 + i * 5).append(',').append(i % 2 == 0 ? "_" : "42").append('\n');
        }
        Files.writeString(recording, rows);
        Path chart = dir.resolve("chart.png");

        int status =
            command.run(
                "--recording", recording.toString(),
                "--arrivals", "crowd:200/2s",
                "--set", "max-active=10000",
                "--compare", "admit-per-second=20,80",
                "--chart", chart.toString());

        assertThat(status).as(command.err()).isZero();
        String report = command.out();
        assertThat(report)
            .contains("admit-per-second=20")
            .contains("admit-per-second=80")
            .contains("wait p90")
            .containsPattern("arrived\\s+600\\s+600\n");
        byte[] png = Files.readAllBytes(chart);
        assertThat(png).startsWith(0x89, 'P', 'N', 'G');
        assertThat(dump(redis)).isEqualTo(before);
      } finally {
        client.shutdown();
      }
    }
  }

  @Test
  void aFasterRateWaitsLess() {
    int status =
        command.run(
            "--arrivals", "crowd:2000/5s",
            "--set", "max-active=100000",
            "--compare", "admit-per-second=50,200",
            "--chart", dir.resolve("c.png").toString());
    assertThat(status).as(command.err()).isZero();
    List<String> p50 = new ArrayList<>();
    for (String line : command.out().split("\n")) {
      if (line.startsWith("wait p50")) {
        p50.addAll(List.of(line.substring(8).trim().split("\\s{2,}")));
      }
    }
    assertThat(p50).hasSize(2);
    assertThat(seconds(p50.get(0))).isGreaterThan(2 * seconds(p50.get(1)));
  }

  private static double seconds(String text) {
    if (text.endsWith("s") && !text.contains("m")) {
      return Double.parseDouble(text.substring(0, text.length() - 1));
    }
    String[] parts = text.replace("s", "").split("m ");
    return Integer.parseInt(parts[0]) * 60 + Integer.parseInt(parts[1].trim());
  }

  private static Map<String, String> dump(RedisCommands<String, String> redis) {
    Map<String, String> all = new TreeMap<>();
    for (String key : redis.keys("*")) {
      all.put(key, redis.type(key) + ":" + java.util.Arrays.toString(redis.dump(key)));
    }
    return all;
  }
}
