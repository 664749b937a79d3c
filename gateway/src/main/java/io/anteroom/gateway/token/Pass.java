package io.anteroom.gateway.token;

import io.anteroom.queue.QueueId;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What a valid pass says: this visitor was admitted to these queues of one room, each until its own
 * end. As read, it holds only the entitlements not yet ended (within the leeway for clock
 * differences between gateways).
 *
 * @param visitor the visitor id
 * @param room the room the pass is for
 * @param entitlements one per item it opens, most recent first, at most {@value
 *     TokenCodec#MAX_ITEMS}
 * @param issuedAt when it was issued (whole seconds)
 * @param expiresAt when the token expires (whole seconds): the latest end of its entitlements
 * @param id the random token id ({@code jti})
 */
public record Pass(
    String visitor,
    String room,
    List<Entitlement> entitlements,
    Instant issuedAt,
    Instant expiresAt,
    String id) {

  public Pass {
    entitlements = List.copyOf(entitlements);
  }

  /** The entitlement that lets its holder into {@code queue}, or null. */
  public Entitlement entitlement(QueueId queue) {
    if (!room.equals(queue.room())) {
      return null;
    }
    for (Entitlement entitlement : entitlements) {
      if (entitlement.item().equals(queue.item())) {
        return entitlement;
      }
    }
    return null;
  }

  /** Whether this pass lets its holder into {@code queue}. */
  public boolean opens(QueueId queue) {
    return entitlement(queue) != null;
  }

  /** The items it opens, most recent first. */
  public List<String> items() {
    return entitlements.stream().map(Entitlement::item).toList();
  }

  /** The entitlements still open at {@code now}, except the one for {@code item}. */
  public List<Entitlement> othersOpenAt(String item, Instant now) {
    return othersOpenAt(entitlements, item, now);
  }

  /**
   * The queues of {@code queue}'s room that {@code entitlements} name besides {@code queue}: where
   * their holder may still have a session, which keeps them an active user of the room.
   */
  public static List<QueueId> otherQueues(QueueId queue, List<Entitlement> entitlements) {
    List<QueueId> others = new ArrayList<>(entitlements.size());
    for (Entitlement entitlement : entitlements) {
      if (!entitlement.item().equals(queue.item())) {
        others.add(QueueId.of(queue.room(), entitlement.item()));
      }
    }
    return others;
  }

  /** Those of {@code entitlements} still open at {@code now}, except the one for {@code item}. */
  public static List<Entitlement> othersOpenAt(
      List<Entitlement> entitlements, String item, Instant now) {
    List<Entitlement> others = new ArrayList<>(entitlements.size());
    for (Entitlement entitlement : entitlements) {
      if (!entitlement.item().equals(item) && entitlement.opensAt(now)) {
        others.add(entitlement);
      }
    }
    return others;
  }
}
