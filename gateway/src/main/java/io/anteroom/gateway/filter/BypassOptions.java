package io.anteroom.gateway.filter;

import io.anteroom.gateway.client.Cidr;
import io.anteroom.gateway.client.ClientAddress;
import io.anteroom.gateway.room.ItemSource;
import io.anteroom.queue.config.RoomOptions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PatternParseException;

/**
 * Reads a room's bypass rules from its options, failing with a message that names the property:
 * {@code bypass-paths} (path patterns such as {@code /products/*}{@code /reviews/**}), {@code
 * bypass-extensions} (added to {@code anteroom.gateway.static-extensions}; never applied to the
 * segment that holds the room's item), {@code bypass-networks} (IPv4 or IPv6 addresses or CIDR
 * ranges) and {@code bypass-secret} (at least {@value #MIN_SECRET_LENGTH} characters; blank for
 * none).
 */
final class BypassOptions {

  static final int MIN_SECRET_LENGTH = 16;

  private BypassOptions() {}

  static Bypass parse(
      String room,
      RoomOptions options,
      List<String> staticExtensions,
      ClientAddress clients,
      ItemSource items) {
    String prefix = "anteroom.rooms." + room + ".";
    Set<String> extensions = new LinkedHashSet<>(staticExtensions);
    for (String extension : options.bypassExtensions()) {
      String bare = extension.startsWith(".") ? extension.substring(1) : extension;
      if (bare.isEmpty() || bare.contains("/") || bare.contains(".")) {
        throw new IllegalArgumentException(
            prefix + "bypass-extensions: '" + extension + "' is not a file extension");
      }
      extensions.add(bare.toLowerCase(Locale.ROOT));
    }
    List<PathPattern> paths = new ArrayList<>();
    for (String path : options.bypassPaths()) {
      paths.add(pathPattern(prefix, path));
    }
    List<Cidr> networks = new ArrayList<>();
    for (String network : options.bypassNetworks()) {
      try {
        networks.add(Cidr.parse(network));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(prefix + "bypass-networks: " + e.getMessage(), e);
      }
    }
    String secret = options.bypassSecret() == null ? "" : options.bypassSecret().trim();
    if (!secret.isEmpty() && secret.length() < MIN_SECRET_LENGTH) {
      throw new IllegalArgumentException(
          prefix + "bypass-secret: must be at least " + MIN_SECRET_LENGTH + " characters");
    }
    return new Bypass(
        extensions, paths, networks, secret.isEmpty() ? null : secret, clients, items);
  }

  private static PathPattern pathPattern(String prefix, String path) {
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException(prefix + "bypass-paths: '" + path + "' must start with /");
    }
    try {
      return PathPatternParser.defaultInstance.parse(path);
    } catch (PatternParseException e) {
      throw new IllegalArgumentException(
          prefix + "bypass-paths: '" + path + "' is not a path pattern: " + e.getMessage(), e);
    }
  }
}
