package io.anteroom.gateway.admin;

import io.anteroom.gateway.admin.AdminProperties.TokenEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Named admin tokens from a directory, as Kubernetes mounts a Secret: each file {@code <name>}
 * holds {@code <role>:<sha256 hex>} (surrounding white space ignored), e.g. a file {@code alice}
 * with {@code operator:} and the 64 hex digits of the SHA-256 of alice's token. Names starting with
 * a dot are skipped: they are the mount's own {@code ..data} links. Read once at start-up: a new
 * token needs a restart, as the other keys do.
 */
final class TokenDirectory {

  private static final String SOURCE = "anteroom.admin.token-dir";

  private TokenDirectory() {}

  /**
   * The entries of {@code dir} by name; an exception naming the directory when it is unreadable.
   */
  static Map<String, TokenEntry> read(String dir) {
    Path path = Path.of(dir);
    if (!Files.isDirectory(path)) {
      throw new IllegalArgumentException(SOURCE + ": " + dir + " is not a directory");
    }
    Map<String, TokenEntry> entries = new TreeMap<>();
    for (Path file : files(path)) {
      String name = file.getFileName().toString();
      entries.put(name, entry(name, text(file)));
    }
    return entries;
  }

  /** One file's {@code role:sha256}. */
  static TokenEntry entry(String name, String text) {
    String content = text.strip();
    int colon = content.indexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException(
          SOURCE
              + ": file "
              + name
              + " must hold <role>:<sha256 hex>, such as operator:<64 hex digits> (the digest"
              + " from: printf %s \"$TOKEN\" | sha256sum)");
    }
    return new TokenEntry(content.substring(0, colon), content.substring(colon + 1));
  }

  private static List<Path> files(Path dir) {
    try (Stream<Path> listed = Files.list(dir)) {
      return listed
          .filter(file -> !file.getFileName().toString().startsWith("."))
          .filter(Files::isRegularFile)
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(SOURCE + ": cannot list " + dir, e);
    }
  }

  private static String text(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(SOURCE + ": cannot read " + file, e);
    }
  }
}
