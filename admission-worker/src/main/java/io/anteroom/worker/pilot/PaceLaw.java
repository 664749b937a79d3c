package io.anteroom.worker.pilot;

import io.anteroom.queue.origin.OriginFigures;
import io.anteroom.queue.origin.PilotReading;
import io.anteroom.queue.origin.PilotState;
import io.anteroom.queue.policy.Autopilot;
import java.time.Duration;
import java.util.Locale;

/**
 * The auto-pilot's control law: additive increase, multiplicative decrease (AIMD) of the share of
 * the configured rates a room admits at, decided at most once a second on the origin's answers to
 * pass holders over the last {@link #WINDOW}, summed over every gateway.
 *
 * <p>Why AIMD: what the auto-pilot controls is a rate of admissions, whose effect on the origin
 * shows only as the admitted visitors start browsing, seconds later, and is read through a window
 * of a few seconds of figures; a gradient limiter (Netflix concurrency-limits' Gradient2) steers
 * the number of requests in flight from each request's own latency, which a gateway sees but the
 * worker setting the rate does not. AIMD needs nothing but a verdict per decision, backs off
 * geometrically (a struggling origin is relieved within a few decisions), and recovers linearly.
 * Two memories keep it from oscillating: after each slow-down it waits until the window holds only
 * answers given since ({@link #SETTLE}) before slowing again, and it climbs slowly ({@link
 * #FINE_STEP}) near the share at which the origin last struggled, so that crossing it again costs
 * little.
 *
 * <ul>
 *   <li><b>Breach</b>: the error share is above {@code autopilot-errors}, or p95 above {@code
 *       autopilot-p95}: the share is multiplied by {@link #DECREASE}, then held for {@link
 *       #SETTLE}; by {@link #HARD_DECREASE} when the breach outlasts that and either figure is more
 *       than twice its bound. Never below the floor.
 *   <li><b>Healthy</b>: errors at most the bound and p95 at most {@link #HEALTHY} of the target:
 *       the share grows by {@link #STEP} a second up to 90 % of the peak (the highest share the
 *       figures of the last cut could show), by {@link #FINE_STEP} from there to 110 % of it; at
 *       most 1, the configured rates.
 *   <li><b>Between</b>: held.
 *   <li><b>No figures</b> (fewer than {@link #MIN_ANSWERS} answers in the window: nobody is
 *       browsing, or no gateway could report): held for {@link #BLIND_HOLD}, then it grows by
 *       {@link #FINE_STEP} a second. It never admits faster than the configured rates, and never
 *       stops: the floor is above 0.
 * </ul>
 */
public final class PaceLaw {

  /** The seconds of figures each decision reads. */
  public static final Duration WINDOW = Duration.ofSeconds(3);

  /** How far behind the clock the window ends: a gateway reports a second after it ends. */
  public static final Duration LAG = Duration.ofSeconds(1);

  /** How often the auto-pilot decides. */
  public static final Duration STEP_EVERY = Duration.ofSeconds(1);

  /**
   * After a slow-down, how long until the window holds only answers given since: the window, the
   * reports' lag, and a few seconds for admitted visitors to hear of it at their next poll.
   */
  static final Duration SETTLE = WINDOW.plus(LAG).plus(Duration.ofSeconds(4));

  static final double DECREASE = 0.8;
  static final double HARD_DECREASE = 0.5;
  static final double STEP = 0.05;
  static final double FINE_STEP = 0.01;
  static final double HEALTHY = 0.8;
  static final long MIN_ANSWERS = 10;
  static final Duration BLIND_HOLD = Duration.ofSeconds(10);

  /** A state older than this is forgotten: the auto-pilot was off, or no worker ran. */
  static final Duration STALE = Duration.ofMinutes(1);

  private PaceLaw() {}

  /**
   * The next state of a pilot that read {@code reading} at {@code now}.
   *
   * @param minShare the least share: the floor over the configured rate, above 0
   */
  public static PilotState decide(
      Autopilot settings, PilotReading reading, long now, double minShare) {
    PilotState state = reading.state();
    if (now - state.at() > STALE.toMillis()) {
      state = PilotState.START;
    }
    double share = Math.max(minShare, Math.min(1, state.share()));
    OriginFigures figures = reading.figures();
    if (figures.answers() < MIN_ANSWERS) {
      return blind(state, share, now);
    }
    double errors = figures.errorShare();
    double p95 = figures.percentileMillis(95);
    double target = settings.targetP95().toMillis();
    String seen = describe(p95, errors);
    boolean slowBreach = p95 > target;
    boolean errorBreach = errors > settings.maxErrors();
    if (slowBreach || errorBreach) {
      String why =
          errorBreach
              ? "origin errors "
                  + percent(errors)
                  + " above the "
                  + percent(settings.maxErrors())
                  + " tolerated"
              : "origin p95 " + millis(p95) + " above the " + millis(target) + " target";
      if (now < state.holdUntil()) {
        return with(state, now, share, "backing off, waiting for the last step to show: " + why);
      }
      // Far past a bound, right after a cut had settled: that cut did not help.
      boolean persists = state.at() < state.holdUntil();
      boolean far = p95 > 2 * target || errors > 2 * settings.maxErrors();
      boolean hard = far && persists;
      double next = Math.max(minShare, share * (hard ? HARD_DECREASE : DECREASE));
      double peak = Math.max(share, state.high());
      return new PilotState(next, now, why, peak, now + SETTLE.toMillis(), now, next);
    }
    if (errors <= settings.maxErrors() && p95 <= HEALTHY * target) {
      if (share >= 1) {
        return new PilotState(1, now, "at the configured rate: " + seen, 0, 0, now, 1);
      }
      if (now < state.holdUntil()) {
        return with(
            state, now, share, "origin healthy, waiting for the last step to show: " + seen);
      }
      double next = Math.min(1, grown(share, state.peak()));
      return with(state, now, next, "origin healthy, recovering: " + seen);
    }
    return with(state, now, share, "holding: " + seen + ", near the " + millis(target) + " target");
  }

  /**
   * {@code share} a step up: by {@link #STEP}, but only up to the edge of the peak's neighbourhood
   * (within 10 % of it), and by {@link #FINE_STEP} within it.
   */
  private static double grown(double share, double peak) {
    if (peak <= 0 || share > 1.1 * peak) {
      return share + STEP;
    }
    double edge = 0.9 * peak;
    return share < edge ? Math.min(edge, share + STEP) : share + FINE_STEP;
  }

  private static PilotState blind(PilotState state, double share, long now) {
    if (now - state.seen() < BLIND_HOLD.toMillis()) {
      return state.next(now, share, "holding: too few answers from the origin to measure");
    }
    double next = Math.min(1, share + FINE_STEP);
    String reason =
        next >= 1
            ? "at the configured rate: too few answers from the origin to measure"
            : "recovering slowly: too few answers from the origin to measure for "
                + BLIND_HOLD.toSeconds()
                + " s";
    return state.next(now, next, reason);
  }

  private static PilotState with(PilotState state, long now, double share, String reason) {
    return new PilotState(
        share, now, reason, state.peak(), state.holdUntil(), now, Math.max(state.high(), share));
  }

  private static String describe(double p95, double errors) {
    return "origin p95 " + millis(p95) + ", errors " + percent(errors);
  }

  /** {@code 850 ms}, or {@code 1.2 s} from a second on. */
  static String millis(double ms) {
    return ms < 1000
        ? String.format(Locale.ROOT, "%.0f ms", ms)
        : String.format(Locale.ROOT, "%.1f s", ms / 1000);
  }

  static String percent(double share) {
    return String.format(
        Locale.ROOT, share < 0.1 && share > 0 ? "%.1f %%" : "%.0f %%", share * 100);
  }
}
