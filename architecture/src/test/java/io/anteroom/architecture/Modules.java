package io.anteroom.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The repository's modules with production code: directory, root package, classes. */
enum Modules {
  TEST_SUPPORT("test-support", "io.anteroom.testing"),
  QUEUE_CORE("queue-core", "io.anteroom.queue"),
  ADMISSION_WORKER("admission-worker", "io.anteroom.worker"),
  GATEWAY("gateway", "io.anteroom.gateway"),
  SIMULATOR("simulator", "io.anteroom.simulator"),
  ORIGIN_GUARD("origin-guard", "io.anteroom.guard"),
  BENCH("bench", "io.anteroom.bench");

  private static final Map<Modules, JavaClasses> IMPORTED = new ConcurrentHashMap<>();

  private final String directory;
  private final String rootPackage;

  Modules(String directory, String rootPackage) {
    this.directory = directory;
    this.rootPackage = rootPackage;
  }

  /** The module's folder in the repository, e.g. {@code queue-core}. */
  String directory() {
    return directory;
  }

  /** Every package of the module is this one or below it, e.g. {@code io.anteroom.queue}. */
  String rootPackage() {
    return rootPackage;
  }

  /** {@code rootPackage()..}, for ArchUnit's package patterns. */
  String packages() {
    return rootPackage + "..";
  }

  /** The module's production classes, read once from the test class path. */
  JavaClasses classes() {
    return IMPORTED.computeIfAbsent(
        this,
        module ->
            new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages(module.rootPackage));
  }

  /** The module's {@code src/main/java}. */
  Path mainSources() {
    return root().resolve(directory).resolve("src/main/java");
  }

  /** The root packages of every module but {@code module} and {@code others}. */
  static String[] packagesOfAllBut(Modules module, Modules... others) {
    List<Modules> keep = new ArrayList<>(List.of(others));
    keep.add(module);
    return Arrays.stream(values())
        .filter(other -> !keep.contains(other))
        .map(Modules::packages)
        .toArray(String[]::new);
  }

  /** The repository's top folder: the tests run in {@code architecture/}. */
  static Path root() {
    Path here = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    for (Path dir = here; dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("docs/architecture.md"))) {
        return dir;
      }
    }
    throw new IllegalStateException("no docs/architecture.md above " + here);
  }
}
