package io.anteroom.guard;

import java.net.URI;
import java.util.Objects;

/**
 * Decides whether a request may reach the origin: on a protected path, only with a pass that opens
 * the path's item. The servlet {@link PassGuardFilter} and the WebFlux {@link PassGuardWebFilter}
 * put it in front of an application; a plain origin calls {@link #decide} itself. Thread-safe.
 *
 * <p>Paths are matched as Spring routes them, not as they are spelled ({@link CanonicalPath}):
 * escapes decoded once, path parameters removed, empty segments dropped, so {@code /%70roducts/1}
 * and {@code /products;a=b/1} are product 1's page, and the item is the decoded segment that
 * Spring's {@code @PathVariable} receives. A path spelled in a way servers read differently (a dot
 * segment, an encoded slash, backslash or percent, a bad escape, a control character) is refused
 * with {@code 400} on every path, pass or not.
 */
public final class PassGuard {

  /** The request attribute holding the {@link PassCheck} of an accepted pass. */
  public static final String CHECK_ATTRIBUTE = PassCheck.class.getName();

  /** What a guard reads of a request; each call answers null for an absent value. */
  public interface Request {
    /**
     * The raw path, still percent-encoded as the request line carries it, without the query (and
     * without a servlet context path).
     */
    String path();

    /** The full path and query to send a redirected visitor to at the gateway. */
    String pathAndQuery();

    /** The first value of the header {@code name}, or null. */
    String header(String name);

    /** The value of the cookie {@code name}, or null when there is none or several. */
    String cookie(String name);
  }

  private final PassVerifier verifier;
  private final GuardSettings settings;
  private final GuardedPaths paths;

  public PassGuard(PassVerifier verifier, GuardSettings settings) {
    this.verifier = Objects.requireNonNull(verifier, "verifier");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.paths = new GuardedPaths(settings.paths());
  }

  /**
   * Whether {@link #decide} has anything to check for a request to {@code rawPath} (as {@link
   * Request#path()}): the path is protected, or spelled so that it is refused.
   */
  public boolean protects(String rawPath) {
    CanonicalPath path = CanonicalPath.of(rawPath);
    return path.problem() != null || paths.match(path.value()) != null;
  }

  /** The verdict for {@code request}. */
  public Verdict decide(Request request) {
    CanonicalPath path = CanonicalPath.of(request.path());
    if (path.problem() != null) {
      return Verdict.ambiguous(path.problem());
    }
    GuardedPaths.Match match = paths.match(path.value());
    if (match == null) {
      return Verdict.UNPROTECTED;
    }
    String item = item(request, match);
    PassCheck check =
        item == null
            ? PassCheck.refused(Refusal.WRONG_ITEM)
            : verifier.verify(pass(request), settings.room(), item);
    if (check.isAccepted()) {
      return Verdict.allowed(check);
    }
    if (settings.onRefusal() == OnRefusal.REDIRECT && check.refusal() == Refusal.MISSING) {
      try {
        return Verdict.redirect(check, gateway(request.pathAndQuery()));
      } catch (IllegalArgumentException e) {
        // A raw path no URI can hold: nothing to send the visitor to.
      }
    }
    return Verdict.forbidden(check);
  }

  /** The item the request names, in the room's spelling of it; null when it names none. */
  private String item(Request request, GuardedPaths.Match match) {
    String item = match.item();
    if (item == null) {
      if (settings.itemHeader() == null) {
        return PassVerifier.ROOM_WIDE;
      }
      item = request.header(settings.itemHeader());
      if (item == null || item.isEmpty()) {
        return null;
      }
    }
    return ItemIds.canonical(item, settings.itemFormat(), settings.itemCase());
  }

  private String pass(Request request) {
    String pass = settings.passHeader() == null ? null : request.header(settings.passHeader());
    if ((pass == null || pass.isEmpty()) && settings.passCookie() != null) {
      pass = request.cookie(settings.passCookie());
    }
    return pass;
  }

  private URI gateway(String pathAndQuery) {
    String base = settings.gatewayUrl().toString();
    if (base.endsWith("/")) {
      base = base.substring(0, base.length() - 1);
    }
    return URI.create(base + pathAndQuery);
  }
}
