package io.anteroom.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ArrivalsTests {

  @Test
  void crowdIsItsSizeWithinItsTimeInOrder() {
    Arrivals crowd = Arrivals.profile("crowd:10000/60s", new SplittableRandom(1));
    assertThat(crowd.size()).isEqualTo(10_000);
    assertThat(crowd.at()).isSorted();
    assertThat(crowd.at()[0]).isGreaterThanOrEqualTo(0);
    assertThat(crowd.span()).isLessThan(60_000).isGreaterThan(59_000);
    assertThat(crowd.items()).containsExactly("_");
  }

  @Test
  void poissonStreamHasAboutItsRate() {
    Arrivals stream = Arrivals.profile("poisson:200/10m", new SplittableRandom(2));
    assertThat(stream.size()).isBetween(117_000, 123_000);
    assertThat(stream.at()).isSorted();
    assertThat(stream.span()).isLessThan(600_000);
  }

  @Test
  void rampRisesFromItsFirstRateToItsLast() {
    Arrivals ramp = Arrivals.profile("ramp:0-100/100s", new SplittableRandom(3));
    // Expected 5,000 in all: 1,250 in the first half, 3,750 in the second.
    long firstHalf = java.util.Arrays.stream(ramp.at()).filter(t -> t < 50_000).count();
    assertThat(ramp.size()).isBetween(4_700, 5_300);
    assertThat(firstHalf).isBetween(1_100L, 1_400L);
    assertThat(ramp.at()).isSorted();
  }

  @Test
  void theSameSeedGivesTheSameArrivals() {
    assertThat(Arrivals.profile("poisson:50/1m", new SplittableRandom(9)).at())
        .isEqualTo(Arrivals.profile("poisson:50/1m", new SplittableRandom(9)).at());
  }

  @Test
  void mergedArrivalsKeepOrderAndItems() {
    Arrivals a = new Arrivals(new long[] {0, 20}, new int[] {0, 0}, List.of("42"), "a");
    Arrivals b = new Arrivals(new long[] {10, 30}, new int[] {0, 1}, List.of("_", "42"), "b");
    Arrivals merged = Arrivals.merge(List.of(a, b));
    assertThat(merged.at()).containsExactly(0, 10, 20, 30);
    assertThat(merged.items()).containsExactly("42", "_");
    assertThat(merged.item()).containsExactly(0, 1, 0, 0);
    assertThat(merged.source()).isEqualTo("a + b");
  }

  @Test
  void badProfilesAreNamed() {
    SplittableRandom random = new SplittableRandom(1);
    assertThatThrownBy(() -> Arrivals.profile("crowd:lots/60s", random))
        .hasMessage("--arrivals crowd:lots/60s: N is a whole number of people");
    assertThatThrownBy(() -> Arrivals.profile("crowd:-5/60s", random))
        .hasMessage("--arrivals crowd:-5/60s: the number of people cannot be negative");
    assertThatThrownBy(() -> Arrivals.profile("poisson:-3/60s", random))
        .hasMessage(
            "--arrivals poisson:-3/60s: a rate is a number of people a second, zero or more");
    assertThatThrownBy(() -> Arrivals.profile("crowd:5/0s", random))
        .hasMessage("--arrivals crowd:5/0s: the time T must be above zero");
    assertThatThrownBy(() -> Arrivals.profile("crowd:5/soon", random))
        .hasMessage("--arrivals crowd:5/soon: T is a duration: 60s, 10m, 1h");
    assertThatThrownBy(() -> Arrivals.profile("wave:5/60s", random))
        .hasMessage("--arrivals wave:5/60s: unknown profile wave; write crowd, poisson or ramp");
    assertThatThrownBy(() -> Arrivals.profile("ramp:5/60s", random))
        .hasMessage("--arrivals ramp:5/60s: a ramp is written ramp:A-B/T, from A to B a second");
    assertThatThrownBy(() -> Arrivals.profile("200000", random))
        .hasMessage("--arrivals 200000: write crowd:N/T, poisson:R/T or ramp:A-B/T");
  }
}
