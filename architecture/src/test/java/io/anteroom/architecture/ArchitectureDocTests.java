package io.anteroom.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every class, script and Redis key that docs/architecture.md names in backticks exists in the
 * production code, so the document cannot drift from the code unnoticed.
 */
class ArchitectureDocTests {

  private static final Path DOC = Modules.root().resolve("docs/architecture.md");

  /**
   * A class, maybe after a module or package path ({@code filter/LineEntry}, {@code
   * queue.config.AnteroomProperties}, {@code gateway/.../token/TokenCodec}) and before a member or
   * nested type ({@code ItemIds.of}, {@code QueueKeys.shadow()}, {@code WaitingRoomFilter.Shared}).
   */
  private static final Pattern CLASS =
      Pattern.compile(
          "((?:(?:[a-z][a-z0-9-]*|\\.\\.\\.|…)[/.])*)"
              + "([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)"
              + "(?:\\.([A-Za-z][A-Za-z0-9]*)(?:\\([A-Za-z]*\\))?)?");

  private static final Pattern SCRIPT = Pattern.compile("[a-z_]+\\.lua");

  /** A package below a module's root, named from {@code io.anteroom.} on or without it. */
  private static final Pattern PACKAGE =
      Pattern.compile(
          "(?:io\\.anteroom\\.)?(?:gateway|worker|queue|guard|testing|bench)(?:\\.[a-z]+)+");

  private static final Pattern KEY = Pattern.compile("wr:\\S+");

  /** Names from the JDK and the frameworks, checked on the class path instead. */
  private static final Map<String, String> OUTSIDE =
      Map.of(
          "Clock", "java.time.Clock",
          "Recorder", "org.HdrHistogram.Recorder",
          "SecureRandom", "java.security.SecureRandom",
          "Signature", "java.security.Signature",
          "SlotHash", "io.lettuce.core.cluster.SlotHash",
          "WebFilter", "org.springframework.web.server.WebFilter");

  /**
   * Capitalised words in backticks that name no class: a header, cookie attributes, and the
   * filter's name in routes ({@code WaitingRoomGatewayFilterFactory} is checked on its own).
   */
  private static final Set<String> NOT_CLASSES =
      Set.of("Accept", "HttpOnly", "Secure", "WaitingRoom");

  private final SourceIndex sources = SourceIndex.of(Modules.root());

  @Test
  void everyClassItNamesExists() throws ClassNotFoundException {
    List<String> missing = new ArrayList<>();
    int checked = 0;
    for (String name : names()) {
      Matcher matcher = CLASS.matcher(name);
      if (!matcher.matches() || NOT_CLASSES.contains(matcher.group(2))) {
        continue;
      }
      checked++;
      if (OUTSIDE.containsKey(matcher.group(2)) && matcher.group(1).isEmpty()) {
        Class.forName(OUTSIDE.get(matcher.group(2)));
        continue;
      }
      if (!sources.hasType(matcher.group(1), matcher.group(2), matcher.group(3))) {
        missing.add(name);
      }
    }
    assertThat(checked).as("class names found in " + DOC).isGreaterThan(100);
    assertThat(missing).as("classes named in " + DOC + " but not in the code").isEmpty();
  }

  @Test
  void everyScriptItNamesExists() {
    List<String> scripts = names().stream().filter(n -> SCRIPT.matcher(n).matches()).toList();
    assertThat(scripts).as("scripts named in " + DOC).hasSizeGreaterThan(20);
    List<String> missing = scripts.stream().filter(name -> !sources.hasScript(name)).toList();
    assertThat(missing).as("scripts named in " + DOC + " but not in the code").isEmpty();
  }

  @Test
  void everyPackageItNamesExists() {
    List<String> packages = names().stream().filter(n -> PACKAGE.matcher(n).matches()).toList();
    assertThat(packages).as("packages named in " + DOC).hasSizeGreaterThan(10);
    List<String> missing = packages.stream().filter(name -> !sources.hasPackage(name)).toList();
    assertThat(missing).as("packages named in " + DOC + " but not in the code").isEmpty();
  }

  @Test
  void everyRedisKeyItNamesIsMadeByTheCode() {
    Set<String> keys = new LinkedHashSet<>(keyTableKeys());
    for (String name : names()) {
      Matcher matcher = KEY.matcher(name);
      while (matcher.find()) {
        keys.add(matcher.group());
      }
    }
    assertThat(keys).as("keys found in " + DOC).hasSizeGreaterThan(10);
    List<String> missing = keys.stream().filter(key -> !sources.makesKey(key)).toList();
    assertThat(missing).as("Redis keys named in " + DOC + " but made nowhere").isEmpty();
  }

  /** Backticked text outside fenced code blocks. */
  private static Set<String> names() {
    Set<String> names = new LinkedHashSet<>();
    Matcher matcher = Pattern.compile("`([^`\n]+)`").matcher(withoutCodeBlocks());
    while (matcher.find()) {
      names.add(matcher.group(1));
    }
    return names;
  }

  /** The first column of the table of keys in "Redis keys": {@code waiting}, {@code seen}, ... */
  private static List<String> keyTableKeys() {
    List<String> keys = new ArrayList<>();
    boolean inTable = false;
    for (String line : read(DOC).split("\n")) {
      if (line.startsWith("| key | written by | read by |")) {
        inTable = true;
      } else if (inTable && !line.startsWith("|")) {
        break;
      } else if (inTable && !line.startsWith("| ---")) {
        Matcher key = Pattern.compile("`([^`]+)`").matcher(line.split("\\|")[1]);
        while (key.find()) {
          keys.add(key.group(1));
        }
      }
    }
    assertThat(keys).as("the key table of " + DOC).isNotEmpty();
    return keys;
  }

  private static String withoutCodeBlocks() {
    return read(DOC).replaceAll("(?s)```.*?```", "");
  }

  static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Path> files(Path dir, String suffix) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.toString().endsWith(suffix)).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
