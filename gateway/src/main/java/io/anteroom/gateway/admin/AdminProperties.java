package io.anteroom.gateway.admin;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The admin API's tokens, each with a name (the {@code who} of the audit trail) and a {@link Role}.
 * Only SHA-256 digests of named tokens are configured, so neither the configuration nor a mounted
 * Secret holds a usable token. The simple setup is one token, {@code token} ({@code
 * ANTEROOM_ADMIN_TOKEN}): it is the token named {@code admin} with the role admin. Any bad entry
 * stops start-up with a message naming it.
 *
 * @param token the bearer token named {@code admin}, role admin, at least {@value
 *     #MIN_TOKEN_LENGTH} letters, digits or {@code ._~+/=-}; default none (blank counts as none)
 * @param tokens named tokens: {@code tokens.<name>: {role: viewer|operator|admin, sha256: <hex
 *     digest of the token>}}; after binding, also those read from {@code token-dir} and the one of
 *     {@code token}; default none
 * @param tokenDir a directory, such as a mounted Kubernetes Secret, where each file {@code <name>}
 *     holds {@code <role>:<sha256 hex>} ({@link TokenDirectory}); default none
 */
@ConfigurationProperties("anteroom.admin")
public record AdminProperties(String token, Map<String, TokenEntry> tokens, String tokenDir) {

  /** Shortest accepted token: {@code openssl rand -hex 16} gives 32 characters. */
  public static final int MIN_TOKEN_LENGTH = 16;

  /** The name of the token set with {@code token}. */
  static final String SIMPLE_NAME = "admin";

  private static final String PREFIX = "anteroom.admin.";

  /** Token characters: those of hex, base64 and base64url, so a prose placeholder is refused. */
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._~+/=-]+");

  /**
   * A named token as configured.
   *
   * @param role viewer, operator or admin
   * @param sha256 the 64 hex digits of the token's SHA-256: {@code printf %s "$TOKEN" | sha256sum}
   */
  public record TokenEntry(String role, String sha256) {}

  public AdminProperties {
    token = token == null || token.isBlank() ? null : token.strip();
    if (token != null && (token.length() < MIN_TOKEN_LENGTH || !TOKEN.matcher(token).matches())) {
      throw new IllegalArgumentException(
          PREFIX
              + "token: must be at least "
              + MIN_TOKEN_LENGTH
              + " letters, digits or ._~+/=- (no spaces); make one with: openssl rand -hex 16");
    }
    tokenDir = tokenDir == null || tokenDir.isBlank() ? null : tokenDir.strip();
    Map<String, TokenEntry> all = new LinkedHashMap<>();
    (tokens == null ? Map.<String, TokenEntry>of() : tokens)
        .forEach(
            (name, entry) -> {
              String source = PREFIX + "tokens." + name;
              all.put(
                  name, checked(source, name, entry == null ? new TokenEntry(null, null) : entry));
            });
    if (tokenDir != null) {
      TokenDirectory.read(tokenDir)
          .forEach((name, entry) -> add(all, PREFIX + "token-dir: file " + name, name, entry));
    }
    if (token != null) {
      String digest = HexFormat.of().formatHex(NamedToken.sha256(token));
      add(all, PREFIX + "token", SIMPLE_NAME, new TokenEntry(Role.ADMIN.value(), digest));
    }
    tokens = Collections.unmodifiableMap(all);
    named(tokens);
  }

  /** Whether any token is set, so the admin API is on. */
  public boolean enabled() {
    return !tokens.isEmpty();
  }

  /**
   * Every token, checked; start-up has failed already on a bad one, or on one token given twice
   * under two names (which name would the audit show?).
   */
  List<NamedToken> named() {
    return named(tokens);
  }

  private static List<NamedToken> named(Map<String, TokenEntry> tokens) {
    List<NamedToken> named = new ArrayList<>();
    tokens.forEach(
        (name, entry) -> {
          NamedToken parsed =
              NamedToken.parse(PREFIX + "tokens." + name, name, entry.role(), entry.sha256());
          for (NamedToken other : named) {
            if (other.matches(parsed.digest())) {
              throw new IllegalArgumentException(
                  PREFIX
                      + "tokens: "
                      + other.name()
                      + " and "
                      + name
                      + " are the same token; give each operator a token of their own");
            }
          }
          named.add(parsed);
        });
    return named;
  }

  private static void add(
      Map<String, TokenEntry> all, String source, String name, TokenEntry entry) {
    if (all.containsKey(name)) {
      throw new IllegalArgumentException(
          source + ": a token named " + name + " is configured already; names must be unique");
    }
    all.put(name, checked(source, name, entry));
  }

  /** The entry with its role and digest in lower case, once {@link NamedToken#parse} accepts it. */
  private static TokenEntry checked(String source, String name, TokenEntry entry) {
    NamedToken parsed = NamedToken.parse(source, name, entry.role(), entry.sha256());
    return new TokenEntry(parsed.role().value(), HexFormat.of().formatHex(parsed.digest()));
  }

  /** Names and roles only, so neither the token nor a digest can end up in a log. */
  @Override
  public String toString() {
    StringBuilder shown = new StringBuilder("AdminProperties[tokens=");
    shown.append(enabled() ? "" : "(none)");
    tokens.forEach(
        (name, entry) -> shown.append(name).append('(').append(entry.role()).append(") "));
    return shown.toString().strip() + "]";
  }
}
