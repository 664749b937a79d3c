package io.anteroom.queue;

import java.util.Locale;

/** Why a queue is on: an operator turned it on, or traffic crossed the room's threshold. */
public enum Activation {
  MANUAL,
  AUTO;

  /** The value stored in the active-queues hash. */
  public String value() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Reads a stored value; anything unknown counts as manual, so it is never auto-deactivated. */
  public static Activation fromValue(String value) {
    return AUTO.value().equals(value) ? AUTO : MANUAL;
  }
}
