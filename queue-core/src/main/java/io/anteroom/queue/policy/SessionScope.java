package io.anteroom.queue.policy;

/**
 * What keeps a visitor's admission to an item alive ({@code session-scope}, set on a room). Either
 * way the room counts each visitor once, by their latest request to any of its items, and the
 * origin's or an operator's release ends an item at once.
 */
public enum SessionScope implements Choice {
  /**
   * A request to that item: an item's admission ends a session's length after its last request, so
   * a hot item's places free as soon as its holders stop looking at it.
   */
  ITEM,
  /**
   * A request to any item of the room keeps all of the visitor's admissions in it, as long as the
   * visitor is active in the room.
   */
  ROOM
}
