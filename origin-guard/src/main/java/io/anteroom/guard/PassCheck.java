package io.anteroom.guard;

import java.time.Instant;

/**
 * What {@link PassVerifier#verify} found: an accepted pass with what it says of the item, or the
 * reason it was refused.
 *
 * @param refusal why the pass was refused; null when accepted
 * @param visitor the visitor id ({@code sub}) of an accepted pass; null when refused
 * @param item the item the pass was checked for; null when refused
 * @param until when the pass stops opening the item; null when refused
 */
public record PassCheck(Refusal refusal, String visitor, String item, Instant until) {

  /** A pass that opens {@code item} for {@code visitor} until {@code until}. */
  public static PassCheck accepted(String visitor, String item, Instant until) {
    return new PassCheck(null, visitor, item, until);
  }

  /** A refused pass. */
  public static PassCheck refused(Refusal refusal) {
    return new PassCheck(refusal, null, null, null);
  }

  /** Whether the pass lets its holder in. */
  public boolean isAccepted() {
    return refusal == null;
  }
}
