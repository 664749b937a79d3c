package io.anteroom.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line's checks of its options, which start no redis-server. */
class SimulateCommandTests {

  @TempDir Path dir;

  private final SimulateRun command = new SimulateRun();

  @Test
  void helpPrintsTheOptions() {
    assertThat(command.run("--help")).isZero();
    assertThat(command.out()).contains("--compare NAME=V1,V2,...");
  }

  @Test
  void anUnknownSettingIsNamed() {
    assertThat(command.run("--arrivals", "crowd:10/1s", "--set", "admit-per-secnd=5")).isEqualTo(2);
    assertThat(command.err()).contains("simulate: --set admit-per-secnd: unknown property");
  }

  @Test
  void aNegativeRateIsNamed() {
    assertThat(command.run("--arrivals", "crowd:10/1s", "--compare", "admit-per-second=30,-5"))
        .isEqualTo(2);
    assertThat(command.err()).contains("simulate: --compare admit-per-second: must be above 0");
  }

  @Test
  void settingsTheSimulatorDoesNotModelAreRefused() {
    assertThat(command.run("--arrivals", "crowd:10/1s", "--set", "total-active-users=100"))
        .isEqualTo(2);
    assertThat(command.err()).contains("--set total-active-users: not simulated");
  }

  @Test
  void aModeThatAdmitsNobodyIsRefused() {
    assertThat(command.run("--arrivals", "crowd:10/1s", "--set", "mode=paused")).isEqualTo(2);
    assertThat(command.err()).contains("nobody would be admitted (mode paused");
  }

  @Test
  void optionsWithoutArrivalsOrValuesAreRefused() {
    assertThat(command.run("--set", "admit-per-second=5")).isEqualTo(2);
    assertThat(command.err()).contains("say who arrives: --arrivals or --recording");
    assertThat(command.run("--arrivals")).isEqualTo(2);
    assertThat(command.err()).contains("--arrivals needs a value");
    assertThat(command.run("--arrivals", "crowd:10/1s", "--speed", "fast")).isEqualTo(2);
    assertThat(command.err()).contains("unknown option --speed");
    assertThat(command.run("--arrivals", "crowd:10/1s", "--chart", "out.svg")).isEqualTo(2);
    assertThat(command.err()).contains("--chart out.svg: the chart is a PNG");
  }

  @Test
  void aMalformedRecordingNamesItsLine() throws Exception {
    Path recording = dir.resolve("arrivals.csv");
    Files.writeString(recording, "at_ms,item\n1000,42\n1000;42\n");
    assertThat(command.run("--recording", recording.toString())).isEqualTo(2);
    assertThat(command.err()).contains("arrivals.csv line 3: expected at_ms,item, found 1000;42");
  }

  @Test
  void aMissingRecordingIsNamed() {
    assertThat(command.run("--recording", dir.resolve("none.csv").toString())).isEqualTo(2);
    assertThat(command.err()).contains("cannot read the recording").contains("none.csv");
  }
}
