package io.anteroom.testing.build;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/** An app's {@code src/main/resources/application.yml}, read by dotted keys. */
public final class AppSettings {

  private final Map<String, Object> root;

  private AppSettings(Map<String, Object> root) {
    this.root = root;
  }

  /** Reads the module's own {@code application.yml} (run from the module directory). */
  public static AppSettings ofModule() {
    return of(Path.of("src/main/resources/application.yml"));
  }

  public static AppSettings of(Path file) {
    try (Reader reader = Files.newBufferedReader(file)) {
      return new AppSettings(new Yaml().load(reader));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The value at {@code dottedKey}, such as {@code management.server.port}, or null. */
  public Object get(String dottedKey) {
    Object node = root;
    for (String key : dottedKey.split("\\.")) {
      if (!(node instanceof Map<?, ?> map)) {
        return null;
      }
      node = map.get(key);
    }
    return node;
  }
}
