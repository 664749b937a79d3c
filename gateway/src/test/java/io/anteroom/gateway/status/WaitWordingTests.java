package io.anteroom.gateway.status;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WaitWordingTests {

  @Test
  void shortWaitsReadLessThanAMinute() {
    assertThat(WaitWording.describe(1, 1)).isEqualTo("less than a minute");
    assertThat(WaitWording.describe(40, 59)).isEqualTo("less than a minute");
  }

  @Test
  void aRangeOfMinutesReadsFromTheShortToTheLongEnd() {
    assertThat(WaitWording.describe(180, 300)).isEqualTo("about 3\u20135 minutes");
    assertThat(WaitWording.describe(190, 290)).isEqualTo("about 3\u20135 minutes");
    assertThat(WaitWording.describe(120, 120)).isEqualTo("about 2 minutes");
    assertThat(WaitWording.describe(60, 60)).isEqualTo("about 1 minute");
  }

  @Test
  void aRangeStartingUnderAMinuteReadsUpTo() {
    assertThat(WaitWording.describe(40, 60)).isEqualTo("up to 1 minute");
    assertThat(WaitWording.describe(40, 70)).isEqualTo("up to 2 minutes");
  }

  @Test
  void longWaitsReadInHours() {
    assertThat(WaitWording.describe(2 * 3600, 3 * 3600)).isEqualTo("about 2\u20133 hours");
    assertThat(WaitWording.describe(3 * 3600, 3 * 3600)).isEqualTo("about 3 hours");
    assertThat(WaitWording.describe(100 * 60, 130 * 60)).isEqualTo("about 100\u2013130 minutes");
  }

  @Test
  void noEstimateSaysSo() {
    assertThat(WaitWording.describe(0, 0)).isEqualTo("not known yet");
  }
}
