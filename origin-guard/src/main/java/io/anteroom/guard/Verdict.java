package io.anteroom.guard;

import java.net.URI;

/**
 * What a guard decided for one request: let it through ({@link #allowed()}), or answer it with
 * {@code status}, a {@code Location} for a redirect, and a short plain-text body.
 *
 * @param check the pass check; null for a path the guard does not protect
 * @param status 0 when allowed, else 303, 400 (a path spelled ambiguously) or 403
 * @param location where a 303 sends the visitor; null otherwise
 * @param body the plain-text body of a refusal; null when allowed
 */
public record Verdict(PassCheck check, int status, URI location, String body) {

  /** A path the guard does not protect. */
  static final Verdict UNPROTECTED = new Verdict(null, 0, null, null);

  static Verdict allowed(PassCheck check) {
    return new Verdict(check, 0, null, null);
  }

  static Verdict forbidden(PassCheck check) {
    return new Verdict(
        check, 403, null, "Forbidden: no valid Anteroom pass (" + check.refusal().tag() + ")\n");
  }

  static Verdict ambiguous(CanonicalPath.Problem problem) {
    return new Verdict(
        PassCheck.refused(Refusal.AMBIGUOUS_PATH),
        400,
        null,
        "Bad Request: ambiguous path (" + problem.tag() + ")\n");
  }

  static Verdict redirect(PassCheck check, URI location) {
    return new Verdict(check, 303, location, "See " + location + "\n");
  }

  /** Whether the request goes on to the origin's own handling. */
  public boolean allowed() {
    return status == 0;
  }
}
