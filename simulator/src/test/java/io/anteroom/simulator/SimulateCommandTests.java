package io.anteroom.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.testing.redis.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulateCommandTests {

  @TempDir Path dir;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return SimulateCommand.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void helpPrintsTheOptions() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("--compare NAME=V1,V2,...");
  }

  @Test
  void anUnknownSettingIsNamed() {
    assertThat(run("--arrivals", "crowd:10/1s", "--set", "admit-per-secnd=5")).isEqualTo(2);
    assertThat(err()).contains("simulate: --set admit-per-secnd: unknown property");
  }

  @Test
  void aNegativeRateIsNamed() {
    assertThat(run("--arrivals", "crowd:10/1s", "--compare", "admit-per-second=30,-5"))
        .isEqualTo(2);
    assertThat(err()).contains("simulate: --compare admit-per-second: must be above 0");
  }

  @Test
  void settingsTheSimulatorDoesNotModelAreRefused() {
    assertThat(run("--arrivals", "crowd:10/1s", "--set", "total-active-users=100")).isEqualTo(2);
    assertThat(err()).contains("--set total-active-users: not simulated");
  }

  @Test
  void aModeThatAdmitsNobodyIsRefused() {
    assertThat(run("--arrivals", "crowd:10/1s", "--set", "mode=paused")).isEqualTo(2);
    assertThat(err()).contains("nobody would be admitted (mode paused");
  }

  @Test
  void optionsWithoutArrivalsOrValuesAreRefused() {
    assertThat(run("--set", "admit-per-second=5")).isEqualTo(2);
    assertThat(err()).contains("say who arrives: --arrivals or --recording");
    assertThat(run("--arrivals")).isEqualTo(2);
    assertThat(err()).contains("--arrivals needs a value");
    assertThat(run("--arrivals", "crowd:10/1s", "--speed", "fast")).isEqualTo(2);
    assertThat(err()).contains("unknown option --speed");
    assertThat(run("--arrivals", "crowd:10/1s", "--chart", "out.svg")).isEqualTo(2);
    assertThat(err()).contains("--chart out.svg: the chart is a PNG");
  }

  @Test
  void aMalformedRecordingNamesItsLine() throws Exception {
    Path recording = dir.resolve("arrivals.csv");
    Files.writeString(recording, "at_ms,item\n1000,42\n1000;42\n");
    assertThat(run("--recording", recording.toString())).isEqualTo(2);
    assertThat(err()).contains("arrivals.csv line 3: expected at_ms,item, found 1000;42");
  }

  @Test
  void aMissingRecordingIsNamed() {
    assertThat(run("--recording", dir.resolve("none.csv").toString())).isEqualTo(2);
    assertThat(err()).contains("cannot read the recording").contains("none.csv");
  }

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
            run(
                "--recording", recording.toString(),
                "--arrivals", "crowd:200/2s",
                "--set", "max-active=10000",
                "--compare", "admit-per-second=20,80",
                "--chart", chart.toString());

        assertThat(status).as(err()).isZero();
        String report = out.toString(StandardCharsets.UTF_8);
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
        run(
            "--arrivals", "crowd:2000/5s",
            "--set", "max-active=100000",
            "--compare", "admit-per-second=50,200",
            "--chart", dir.resolve("c.png").toString());
    assertThat(status).as(err()).isZero();
    List<String> p50 = new ArrayList<>();
    for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
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
