package io.anteroom.queue.policy;

import java.util.List;

/** One or more policy values could not be used; {@link #problems()} names each property. */
public final class InvalidPolicyException extends IllegalArgumentException {

  private final List<String> problems;

  public InvalidPolicyException(String source, List<String> problems) {
    super("invalid policy in " + source + ": " + String.join("; ", problems));
    this.problems = List.copyOf(problems);
  }

  /** Each problem as {@code property: what is wrong}. */
  public List<String> problems() {
    return problems;
  }
}
