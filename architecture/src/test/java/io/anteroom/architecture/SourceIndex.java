package io.anteroom.architecture;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The production sources and scripts of every module, for looking names up. */
final class SourceIndex {

  private static final Pattern TYPE =
      Pattern.compile("\\b(?:class|interface|enum|record|@interface)\\s+([A-Z][A-Za-z0-9]*)");

  private final Map<String, List<Path>> typeFiles = new HashMap<>();
  private final Map<Path, String> texts = new HashMap<>();
  private final List<Path> scripts = new ArrayList<>();

  private SourceIndex() {}

  static SourceIndex of(Path root) {
    SourceIndex index = new SourceIndex();
    for (Modules module : Modules.values()) {
      for (Path file : ArchitectureDocTests.files(module.mainSources(), ".java")) {
        String text = ArchitectureDocTests.read(file);
        index.texts.put(file, text);
        Matcher type = TYPE.matcher(text);
        while (type.find()) {
          index.typeFiles.computeIfAbsent(type.group(1), name -> new ArrayList<>()).add(file);
        }
      }
      index.scripts.addAll(
          ArchitectureDocTests.files(root.resolve(module.directory()).resolve("src/main"), ".lua"));
    }
    return index;
  }

  /**
   * Whether a type of this simple name is declared in a file under every folder of {@code path}
   * ("filter/", "queue.config.", "gateway/.../token/"), in order, and declares {@code member} when
   * given (a method, field or nested type).
   */
  boolean hasType(String path, String simpleName, String member) {
    for (Path file : typeFiles.getOrDefault(simpleName, List.of())) {
      if (under(file, path) && (member == null || declares(texts.get(file), member))) {
        return true;
      }
    }
    return false;
  }

  /** Whether some module has a production source in this package, {@code io.anteroom.} implied. */
  boolean hasPackage(String name) {
    String folder =
        "/io/anteroom/" + name.replaceFirst("^io\\.anteroom\\.", "").replace('.', '/') + "/";
    return texts.keySet().stream()
        .anyMatch(file -> file.toString().replace('\\', '/').contains(folder));
  }

  boolean hasScript(String name) {
    return scripts.stream().anyMatch(file -> file.getFileName().toString().equals(name));
  }

  /**
   * Whether some production source writes the key's fixed part as a string: for {@code
   * wr:settings:<room>} the text {@code ":settings:"}, for {@code {room}:arrivals} {@code
   * ":arrivals"}, for {@code waiting} {@code "waiting"}.
   */
  boolean makesKey(String key) {
    String fixed = key.replaceFirst("^wr:", "").replaceFirst("^\\{[a-z]+}:", "");
    fixed = fixed.split("[<{…]", 2)[0].replaceAll(":+$", "");
    if (fixed.isEmpty()) {
      return false;
    }
    Pattern literal = Pattern.compile("\":?" + Pattern.quote(fixed) + "[:\"]");
    return texts.values().stream().anyMatch(text -> literal.matcher(text).find());
  }

  private static boolean under(Path file, String path) {
    String rest = file.toString().replace('\\', '/');
    for (String folder : path.split("[/.]")) {
      if (folder.isEmpty() || folder.equals("…")) {
        continue;
      }
      int at = rest.indexOf("/" + folder + "/");
      if (at < 0) {
        return false;
      }
      rest = rest.substring(at + folder.length() + 1);
    }
    return true;
  }

  private static boolean declares(String text, String member) {
    return Pattern.compile("\\b" + Pattern.quote(member) + "\\b").matcher(text).find();
  }
}
