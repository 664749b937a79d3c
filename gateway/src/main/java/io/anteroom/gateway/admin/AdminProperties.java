package io.anteroom.gateway.admin;

import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The admin API's settings. Spring's relaxed binding reads {@code token} from the environment
 * variable {@code ANTEROOM_ADMIN_TOKEN} too.
 *
 * @param token the bearer token of the admin API, at least {@value #MIN_TOKEN_LENGTH} letters,
 *     digits or {@code ._~+/=-}; default none, which turns the API off (blank counts as none)
 */
@ConfigurationProperties("anteroom.admin")
public record AdminProperties(String token) {

  /** Shortest accepted token: {@code openssl rand -hex 16} gives 32 characters. */
  public static final int MIN_TOKEN_LENGTH = 16;

  /** Token characters: those of hex, base64 and base64url, so a prose placeholder is refused. */
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._~+/=-]+");

  public AdminProperties {
    token = token == null || token.isBlank() ? null : token.strip();
    if (token != null && (token.length() < MIN_TOKEN_LENGTH || !TOKEN.matcher(token).matches())) {
      throw new IllegalArgumentException(
          "anteroom.admin.token: must be at least "
              + MIN_TOKEN_LENGTH
              + " letters, digits or ._~+/=- (no spaces); make one with: openssl rand -hex 16");
    }
  }

  /** Whether a token is set, so the admin API is on. */
  public boolean enabled() {
    return token != null;
  }

  /** Never shows the token, so it cannot end up in a log. */
  @Override
  public String toString() {
    return "AdminProperties[token=" + (enabled() ? "(set)" : "(none)") + "]";
  }
}
