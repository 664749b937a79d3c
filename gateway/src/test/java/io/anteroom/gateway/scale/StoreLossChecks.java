package io.anteroom.gateway.scale;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.anteroom.gateway.WireMockOrigin;
import io.anteroom.gateway.scale.AdmissionReplay.Admission;
import io.anteroom.gateway.token.Pass;
import io.anteroom.gateway.token.TokenCodec;
import io.anteroom.gateway.token.TokenProperties;
import io.anteroom.gateway.token.Verified;
import io.anteroom.queue.QueueId;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.assertj.core.api.SoftAssertions;

/**
 * What must hold of lines served through a store that lost data (came back empty, or older): those
 * who were in line before the loss go before every newcomer, admissions follow the line's order,
 * the rate holds on the store from its first command, and the origin sees only passes of visitors
 * the lines admitted. Progress and figures go to {@link Instances#report}.
 */
final class StoreLossChecks {

  static final long[] WINDOWS_MS = {100, 250, 500, 1_000, 2_000, 5_000};

  /** The room the store-loss tests serve: 10 a second, a burst of 5 (admit-burst 500ms). */
  static final double RATE = 10;

  static final double BURST = 5;
  static final String PASS_HEADER = "Anteroom-Pass";
  static final String TICK = "100ms";

  /**
   * abandon-after 20s: pages poll at least every 5 s, so the line is held 7 s after the loss
   * (RoomPolicy#rejoinHold).
   */
  static final String ABANDON = "--anteroom.defaults.abandon-after=20s";

  static final Duration HOLD = Duration.ofSeconds(7);

  private final Instances instances;
  private final SoftAssertions softly;

  StoreLossChecks(Instances instances, SoftAssertions softly) {
    this.instances = instances;
    this.softly = softly;
  }

  /**
   * The old line (on {@code is}, the line after the loss: those waiting at the loss on {@code was},
   * those the store kept, and those who rejoined with a ticket) took places ahead of every newcomer
   * (who never joined {@code was}) and was admitted before any newcomer; admissions followed the
   * line's order throughout. Visitors who joined before the loss and joined again at the back since
   * (their session ended) are neither.
   */
  void oldLineFirst(QueueId queue, AdmissionReplay was, AdmissionReplay is) {
    List<String> waitingAtLoss = was.inLine();
    Set<String> old = new HashSet<>(waitingAtLoss);
    old.addAll(is.startingLine());
    is.joined().stream().filter(v -> is.placeOf(v) < 0).forEach(old::add);
    Set<String> before = was.joined();
    List<Admission> admissions = is.admissions();
    int firstNewcomer = admissions.size();
    int lastOld = -1;
    int oldAdmitted = 0;
    int twice = 0;
    for (int i = 0; i < admissions.size(); i++) {
      String visitor = admissions.get(i).visitor();
      if (old.contains(visitor)) {
        lastOld = i;
        oldAdmitted++;
      } else if (!before.contains(visitor) && firstNewcomer == admissions.size()) {
        firstNewcomer = i;
      }
      if (was.wasAdmitted(visitor)) {
        twice++;
      }
    }
    double newcomersFrom =
        is.joined().stream()
            .filter(v -> !old.contains(v) && !before.contains(v))
            .mapToDouble(is::placeOf)
            .min()
            .orElse(Double.MAX_VALUE);
    long cameBack = waitingAtLoss.stream().filter(v -> is.placeOf(v) != null).count();
    long cameBackBehind =
        waitingAtLoss.stream()
            .filter(v -> is.placeOf(v) != null && is.placeOf(v) > newcomersFrom)
            .count();
    instances.report(
        "%s: %d waiting at the loss, %d of them in line after it (%d behind newcomers), %d admitted since; %d admissions after the loss, the first"
            + " newcomer's is number %d; %d admitted before the loss were admitted again; %d"
            + " arrivals, %d waiting at the end",
        queue,
        waitingAtLoss.size(),
        cameBack,
        cameBackBehind,
        oldAdmitted,
        admissions.size(),
        firstNewcomer + 1,
        twice,
        is.arrivals(),
        is.waiting());
    softly.assertThat(waitingAtLoss).as("%s waiting at the loss", queue).isNotEmpty();
    softly.assertThat(cameBackBehind).as("%s came back behind newcomers", queue).isZero();
    softly
        .assertThat(lastOld)
        .as("%s last admission of the old line before the first newcomer's", queue)
        .isLessThan(firstNewcomer);
    softly
        .assertThat(admissions.size())
        .as("%s admitted after the loss", queue)
        .isGreaterThan(firstNewcomer);
    softly.assertThat(is.disorder()).as("%s admissions out of order", queue).isEmpty();
  }

  /** In every window W of the bucket's clock after the loss: admitted ≤ rate·W + burst. */
  void rateHolds(QueueId queue, AdmissionReplay is, double rate, double burst) {
    List<Long> times = is.admissions().stream().map(Admission::bucketMs).toList();
    for (long window : WINDOWS_MS) {
      int peak = Timeline.peak(times, window);
      double bound = rate * window / 1000.0 + burst;
      instances.report("%s: peak admissions in %d ms = %d, bound %.1f", queue, window, peak, bound);
      softly
          .assertThat((double) peak)
          .as("%s admissions in %d ms", queue, window)
          .isLessThanOrEqualTo(bound + 1e-6);
    }
  }

  /**
   * Every request for {@code /products/<item>} the origin got carries a valid pass, for that item's
   * queue, of a visitor one of {@code replays} (by queue) saw admitted.
   */
  void originSeesOnlyPasses(
      WireMockOrigin origin,
      Crowd crowd,
      TokenProperties tokens,
      String passHeader,
      Map<QueueId, List<AdmissionReplay>> replays) {
    List<LoggedRequest> reached = origin.findAll(getRequestedFor(urlPathMatching("/products/.*")));
    int fine = 0;
    for (LoggedRequest request : reached) {
      String item = request.getUrl().substring(request.getUrl().lastIndexOf('/') + 1);
      QueueId queue = QueueId.of("shop", item);
      Clock then = Clock.fixed(request.getLoggedDate().toInstant(), ZoneOffset.UTC);
      Verified<Pass> pass =
          TokenCodec.from(tokens, then).readPass(request.getHeader(passHeader), "shop");
      if (pass instanceof Verified.Valid<Pass> valid
          && valid.value().opens(queue)
          && replays.getOrDefault(queue, List.of()).stream()
              .anyMatch(r -> r.wasAdmitted(valid.value().visitor()))) {
        fine++;
      }
    }
    List<String> problems = crowd.problems();
    instances.report(
        "origin: %d requests, %d with a valid pass of an admitted visitor; answers no visitor"
            + " should get: %d %s",
        reached.size(), fine, problems.size(), problems.stream().limit(10).toList());
    softly.assertThat(fine).as("origin requests with a valid pass").isEqualTo(reached.size());
    softly.assertThat(reached.size()).as("visitors reached the origin").isGreaterThan(50);
    softly
        .assertThat(problems)
        .as("answers no visitor should get, beyond the failure policy's during the switch")
        .allMatch(p -> !p.contains(" 500 ") && !p.contains("answered 500"));
  }
}
