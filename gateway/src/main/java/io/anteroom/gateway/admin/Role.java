package io.anteroom.gateway.admin;

import java.util.Locale;

/**
 * What an admin token may do, each role including the ones before it: a viewer reads, an operator
 * also steers the line (settings, modes, messages, queue actions), an admin also switches the
 * failure policy.
 */
enum Role {
  /** Reads everything the API shows. */
  VIEWER,
  /** Also changes settings, modes, messages, and activates, pauses and releases. */
  OPERATOR,
  /** Also switches the failure policy, the one setting that can let everyone past the line. */
  ADMIN;

  /**
   * The name used in configuration and answers: {@code viewer}, {@code operator}, {@code admin}.
   */
  String value() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Whether a token of this role may do what {@code needed} may. */
  boolean allows(Role needed) {
    return compareTo(needed) >= 0;
  }

  /** The role named {@code text} (any case), or an exception naming the three. */
  static Role parse(String text) {
    for (Role role : values()) {
      if (role.value().equalsIgnoreCase(text == null ? "" : text.strip())) {
        return role;
      }
    }
    throw new IllegalArgumentException(
        "role must be one of viewer, operator, admin; was '" + text + "'");
  }
}
