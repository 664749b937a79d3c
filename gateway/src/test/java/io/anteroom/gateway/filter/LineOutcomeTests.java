package io.anteroom.gateway.filter;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LineOutcomeTests {

  private static final Instant NOW = Instant.parse("2026-06-01T10:00:00Z");
  private static final Duration SESSION = Duration.ofMinutes(5);

  private static Line.Outcome admittedSince(Instant since) {
    return new Line.Outcome("v", true, 0, 3, false, false, 0, 0, since.toEpochMilli());
  }

  @Test
  void aPassPickedUpLaterLastsWhatIsLeftOfTheSessionThatBeganAtAdmission() {
    assertThat(admittedSince(NOW.minusSeconds(240)).passLifetime(SESSION, NOW))
        .isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void aPassGivenAtAdmissionLastsTheWholeSession() {
    assertThat(new Line.Outcome("v", true, 0, 3, true, false, 0, 0).passLifetime(SESSION, NOW))
        .isEqualTo(SESSION);
    assertThat(admittedSince(NOW).passLifetime(SESSION, NOW)).isEqualTo(SESSION);
  }

  @Test
  void aSessionAboutToBeExpiredStillGivesTheShortestPass() {
    assertThat(admittedSince(NOW.minusSeconds(600)).passLifetime(SESSION, NOW))
        .isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void anAdmissionTimeAheadOfThisClockNeverLengthensThePass() {
    assertThat(admittedSince(NOW.plusSeconds(30)).passLifetime(SESSION, NOW)).isEqualTo(SESSION);
  }
}
