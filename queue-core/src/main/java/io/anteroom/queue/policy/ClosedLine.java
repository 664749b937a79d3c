package io.anteroom.queue.policy;

/** What happens to the people in line while a room or queue is {@link Mode#CLOSED}. */
public enum ClosedLine implements Choice {
  /** They keep their places, for when the room opens again. */
  KEEP,
  /** Their places are given up. */
  CLEAR
}
