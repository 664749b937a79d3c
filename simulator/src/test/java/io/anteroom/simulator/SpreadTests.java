package io.anteroom.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class SpreadTests {

  @Test
  void fixedDrawsItsDuration() {
    Spread spread = Spread.parse("--session", "90s");
    assertThat(spread.draw(new SplittableRandom(1))).isEqualTo(90_000);
  }

  @Test
  void exponentialDrawsAboutItsMean() {
    Spread spread = Spread.parse("--session", "exp:5m");
    SplittableRandom random = new SplittableRandom(7);
    double mean =
        LongStream.range(0, 100_000).map(i -> spread.draw(random)).average().orElseThrow();
    assertThat(mean).isBetween(0.98 * 300_000, 1.02 * 300_000);
  }

  @Test
  void uniformStaysWithinItsRange() {
    Spread spread = Spread.parse("--patience", "uniform:2m-8m");
    SplittableRandom random = new SplittableRandom(3);
    for (int i = 0; i < 10_000; i++) {
      assertThat(spread.draw(random)).isBetween(120_000L, 480_000L);
    }
  }

  @Test
  void neverLastsForever() {
    assertThat(Spread.parse("--patience", "never").draw(new SplittableRandom(1)))
        .isEqualTo(Spread.FOREVER);
  }

  @Test
  void badSpreadsNameTheOptionAndTheText() {
    assertThatThrownBy(() -> Spread.parse("--session", "-5m"))
        .hasMessageStartingWith("--session -5m: must be above zero");
    assertThatThrownBy(() -> Spread.parse("--session", "0s"))
        .hasMessageContaining("--session 0s: must be above zero");
    assertThatThrownBy(() -> Spread.parse("--patience", "uniform:8m-2m"))
        .hasMessageContaining("--patience uniform:8m-2m: the range ends before it starts");
    assertThatThrownBy(() -> Spread.parse("--patience", "uniform:8m"))
        .hasMessageContaining("a range is written low-high");
    assertThatThrownBy(() -> Spread.parse("--session", "soon"))
        .hasMessageStartingWith("--session soon:")
        .hasMessageContaining("write 5m, exp:5m, uniform:2m-8m or never");
  }
}
