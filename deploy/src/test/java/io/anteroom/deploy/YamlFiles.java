package io.anteroom.deploy;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.Yaml;

/** Plain YAML read as maps and lists, and looked up by dotted Spring-style paths. */
final class YamlFiles {

  private YamlFiles() {}

  /** The single document of {@code file} as a map. */
  static Map<String, Object> load(Path file) {
    try (Reader in = Files.newBufferedReader(file)) {
      Map<String, Object> yaml = new Yaml().load(in);
      if (yaml == null) {
        throw new IllegalStateException(file + " is empty");
      }
      return yaml;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The value at {@code path} ({@code management.server.port}), whether the YAML nests each part or
   * writes several parts as one dotted key.
   */
  static Optional<Object> at(Map<String, Object> yaml, String path) {
    if (yaml.containsKey(path)) {
      return Optional.ofNullable(yaml.get(path));
    }
    for (Map.Entry<String, Object> entry : yaml.entrySet()) {
      if (path.startsWith(entry.getKey() + ".") && entry.getValue() instanceof Map<?, ?> nested) {
        Optional<Object> found = at(map(nested), path.substring(entry.getKey().length() + 1));
        if (found.isPresent()) {
          return found;
        }
      }
    }
    return Optional.empty();
  }

  /** The string at {@code path}, or empty. */
  static Optional<String> string(Map<String, Object> yaml, String path) {
    return at(yaml, path).map(String::valueOf);
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object value) {
    return (Map<String, Object>) value;
  }

  @SuppressWarnings("unchecked")
  static List<Object> list(Object value) {
    return value == null ? List.of() : (List<Object>) value;
  }

  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
