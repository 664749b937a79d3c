package io.anteroom.queue.policy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The checks of a {@link RoomPolicy}'s values, collected rather than stopped at the first: each
 * problem starts with the property name, and {@link #orThrow} reports them all at once.
 */
final class PolicyChecks {

  private final List<String> problems = new ArrayList<>();

  /** A problem, {@code property: message}, unless {@code valid}. */
  PolicyChecks require(boolean valid, PolicyProperty property, String message) {
    if (!valid) {
      problems.add(property.key() + ": " + message);
    }
    return this;
  }

  /** A problem unless {@code value} is a duration above zero. */
  PolicyChecks positive(Duration value, PolicyProperty property) {
    return require(
        value != null && !value.isNegative() && !value.isZero(),
        property,
        "must be a positive duration");
  }

  /** A problem unless {@code value} is set. */
  PolicyChecks set(Object value, PolicyProperty property) {
    return require(value != null, property, "must be set");
  }

  /** The problems of a part of the policy ({@code check} adds them), or that it is missing. */
  <T> PolicyChecks part(String name, T part, Consumer<List<String>> check) {
    if (part == null) {
      problems.add(name + ": must be set");
    } else {
      check.accept(problems);
    }
    return this;
  }

  /**
   * @throws InvalidPolicyException naming every problem, if there is any
   */
  void orThrow(String source) {
    if (!problems.isEmpty()) {
      throw new InvalidPolicyException(source, problems);
    }
  }
}
