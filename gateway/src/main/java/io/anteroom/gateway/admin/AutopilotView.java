package io.anteroom.gateway.admin;

import io.anteroom.queue.origin.PilotState;
import io.anteroom.queue.policy.PolicyProperty;
import io.anteroom.queue.policy.RoomPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A room's auto-pilot as the admin API shows it: whether it is on, the share of the configured rate
 * it admits at, that rate (the ceiling) and the rate in force, its last decision in words, and its
 * last changes. The rate is the one the workers apply ({@link RoomPolicy#paced}): the room's {@code
 * new-users-per-minute} per second when it has one ({@code "per": "room"}), otherwise each queue's
 * {@code admit-per-second} ({@code "per": "queue"}), never below the floor.
 *
 * <p>A decision older than {@link #STALE} counts as none, as the workers forget it too: the
 * auto-pilot was off, or no worker ran, and the next decision starts from the configured rate.
 */
final class AutopilotView {

  /** Most changes shown, newest first. */
  static final int CHANGES_SHOWN = 20;

  /** As the workers' {@code PaceLaw.STALE}. */
  static final Duration STALE = Duration.ofMinutes(1);

  private static final List<PolicyProperty> SETTINGS =
      List.of(
          PolicyProperty.AUTOPILOT,
          PolicyProperty.AUTOPILOT_P95,
          PolicyProperty.AUTOPILOT_ERRORS,
          PolicyProperty.AUTOPILOT_FLOOR);

  private static final String AT_CONFIGURED = "at the configured rate";
  private static final String HOLDING = "holding: ";

  private AutopilotView() {}

  /**
   * Where the auto-pilot stands.
   *
   * @param reason its last decision in words, null when off or not decided
   * @param decidedAt when it decided (epoch ms), null when off or not decided
   */
  record Standing(
      boolean on,
      double share,
      double ceiling,
      double rate,
      String per,
      String reason,
      Long decidedAt,
      String summary) {}

  /** Where the auto-pilot of a room with {@code policy} and {@code state} stands at {@code now}. */
  static Standing standing(RoomPolicy policy, PilotState state, long now) {
    double ceiling = policy.pacedRate();
    String per = policy.budget().newUsersPerMinute() > 0 ? "room" : "queue";
    String configured = "admitting at the configured " + rate(ceiling) + "/s";
    if (!policy.autopilot().on()) {
      return new Standing(false, 1, ceiling, ceiling, per, null, null, "off: " + configured);
    }
    if (state.at() <= 0 || now - state.at() > STALE.toMillis()) {
      return new Standing(
          true,
          1,
          ceiling,
          ceiling,
          per,
          null,
          null,
          "not decided yet: " + configured + " until a worker decides");
    }
    double share = Math.min(1, state.share());
    double paced = policy.paced(share).pacedRate();
    String detail = detail(state.reason());
    String head = share < 1 ? "holding at " + rate(paced) + "/s" : configured;
    return new Standing(
        true,
        share,
        ceiling,
        paced,
        per,
        state.reason(),
        state.at(),
        detail.isEmpty() ? head : head + ": " + detail);
  }

  /** {@code GET /admin/api/rooms/{room}/autopilot}. */
  static Map<String, Object> of(
      String room, RoomPolicy policy, PilotState state, List<PilotState> changes, long now) {
    Standing standing = standing(policy, state, now);
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("room", room);
    put(view, standing);
    view.put("reason", standing.reason());
    view.put(
        "decidedAt",
        standing.decidedAt() == null
            ? null
            : Instant.ofEpochMilli(standing.decidedAt()).toString());
    view.put("settings", settings(policy));
    view.put("changes", changes(policy, changes));
    return view;
  }

  /** The few fields the room listing carries. */
  static Map<String, Object> compact(RoomPolicy policy, PilotState state, long now) {
    Map<String, Object> view = new LinkedHashMap<>();
    put(view, standing(policy, state, now));
    return view;
  }

  private static void put(Map<String, Object> view, Standing standing) {
    view.put("on", standing.on());
    view.put("share", number(standing.share(), 1000));
    view.put("ceiling", number(standing.ceiling(), 100));
    view.put("rate", number(standing.rate(), 100));
    view.put("per", standing.per());
    view.put("summary", standing.summary());
  }

  private static Map<String, String> settings(RoomPolicy policy) {
    Map<String, String> values = new LinkedHashMap<>();
    SETTINGS.forEach(p -> values.put(p.key(), PolicyView.value(policy, p)));
    return values;
  }

  /** Each change with the rate its share gives at today's configured rate. */
  private static List<Map<String, Object>> changes(RoomPolicy policy, List<PilotState> changes) {
    List<Map<String, Object>> views = new ArrayList<>();
    for (PilotState change : changes.subList(0, Math.min(CHANGES_SHOWN, changes.size()))) {
      Map<String, Object> view = new LinkedHashMap<>();
      view.put("at", Instant.ofEpochMilli(change.at()).toString());
      view.put("share", number(change.share(), 1000));
      view.put("rate", number(policy.paced(Math.min(1, change.share())).pacedRate(), 100));
      view.put("reason", change.reason());
      views.add(view);
    }
    return views;
  }

  /** The reason without the words the summary's head already says. */
  private static String detail(String reason) {
    if (reason == null || reason.equals(AT_CONFIGURED)) {
      return "";
    }
    if (reason.startsWith(AT_CONFIGURED + ": ")) {
      return reason.substring(AT_CONFIGURED.length() + 2);
    }
    return reason.startsWith(HOLDING) ? reason.substring(HOLDING.length()) : reason;
  }

  /** {@code 35}, {@code 0.5}: a rate as the summary writes it. */
  private static String rate(double perSecond) {
    return PolicyView.number(Math.round(perSecond * 100) / 100.0);
  }

  /** {@code value} rounded to 1/{@code scale}, whole numbers without a fraction. */
  private static Number number(double value, int scale) {
    double rounded = Math.round(value * scale) / (double) scale;
    return rounded == Math.rint(rounded) && Math.abs(rounded) < Long.MAX_VALUE
        ? (Number) (long) rounded
        : (Number) rounded;
  }
}
