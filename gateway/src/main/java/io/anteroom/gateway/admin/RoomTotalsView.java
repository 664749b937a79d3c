package io.anteroom.gateway.admin;

import io.anteroom.queue.RoomTotals;
import io.anteroom.queue.policy.PolicyProperty;
import io.anteroom.queue.policy.RoomPolicy;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A room's totals as the admin API shows them, each next to the limit it is held to: the limits
 * written as the room's settings are ({@code none} when unset), the measured figures as numbers.
 */
final class RoomTotalsView {

  private RoomTotalsView() {}

  static Map<String, Object> of(RoomPolicy policy, RoomTotals totals) {
    Map<String, Object> view = new LinkedHashMap<>();
    view.put("active-users", totals.activeUsers());
    view.put(
        PolicyProperty.TOTAL_ACTIVE_USERS.key(),
        PolicyView.value(policy, PolicyProperty.TOTAL_ACTIVE_USERS));
    view.put("measured-new-users-per-minute", PolicyView.number(totals.newUsersPerMinute()));
    view.put(
        PolicyProperty.NEW_USERS_PER_MINUTE.key(),
        PolicyView.value(policy, PolicyProperty.NEW_USERS_PER_MINUTE));
    view.put("waiting", totals.waiting());
    view.put("full", totals.full());
    return view;
  }
}
