package io.anteroom.testing.redis;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Finds the redis-server executable: an explicit override, else an installed one, else the Linux
 * binary shipped inside the embedded-redis jar, extracted to a temporary file.
 */
final class RedisBinary {

  static final String OVERRIDE_PROPERTY = "anteroom.test.redis-server";
  static final String OVERRIDE_ENV = "ANTEROOM_TEST_REDIS_SERVER";

  private static final String EXECUTABLE = "redis-server";
  private static final String EMBEDDED_AMD64 = "redis-server-6.2.6-v5-linux-amd64";
  private static final String EMBEDDED_ARM64 = "redis-server-6.2.7-linux-arm64";

  private static Path resolved;

  private RedisBinary() {}

  /** The executable to run, looked up once per JVM. */
  static synchronized Path resolve() {
    if (resolved == null) {
      resolved = lookUp();
    }
    return resolved;
  }

  private static Path lookUp() {
    String override = System.getProperty(OVERRIDE_PROPERTY, System.getenv(OVERRIDE_ENV));
    if (override != null && !override.isBlank()) {
      Path path = Path.of(override);
      if (!Files.isExecutable(path)) {
        throw new IllegalStateException(
            OVERRIDE_PROPERTY + "/" + OVERRIDE_ENV + " names " + path + ", not an executable");
      }
      return path;
    }
    return installed().orElseGet(RedisBinary::extractEmbedded);
  }

  private static Optional<Path> installed() {
    String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
    return Stream.concat(
            Arrays.stream(path.split(File.pathSeparator)).filter(dir -> !dir.isBlank()),
            Stream.of("/usr/bin", "/usr/local/bin"))
        .map(dir -> Path.of(dir, EXECUTABLE))
        .filter(Files::isExecutable)
        .findFirst();
  }

  /**
   * Copies the embedded binary for this machine to a new temporary executable file, deleted when
   * the JVM exits. Every call makes a new copy; {@link #resolve()} caches.
   */
  static Path extractEmbedded() {
    String resource =
        embeddedResource(System.getProperty("os.name"), System.getProperty("os.arch"));
    try (InputStream in = RedisBinary.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            resource + " is not on the classpath; is com.github.codemonstur:embedded-redis?");
      }
      Path file = Files.createTempFile("anteroom-redis-server-", "");
      file.toFile().deleteOnExit();
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot extract " + resource, e);
    }
  }

  static String embeddedResource(String osName, String arch) {
    if (!osName.toLowerCase(Locale.ROOT).startsWith("linux")) {
      throw noBinary(osName, arch);
    }
    return switch (arch) {
      case "amd64", "x86_64" -> EMBEDDED_AMD64;
      case "aarch64", "arm64" -> EMBEDDED_ARM64;
      default -> throw noBinary(osName, arch);
    };
  }

  private static IllegalStateException noBinary(String osName, String arch) {
    return new IllegalStateException(
        "no redis-server installed and none embedded for "
            + osName
            + "/"
            + arch
            + "; install Redis or set "
            + OVERRIDE_PROPERTY
            + " or "
            + OVERRIDE_ENV);
  }
}
