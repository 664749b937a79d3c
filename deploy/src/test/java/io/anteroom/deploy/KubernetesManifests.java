package io.anteroom.deploy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Every manifest under {@code deploy/kubernetes}, read as typed fabric8 objects, plus what the
 * kustomizations generate. Files named by a kustomization's generators (the shared config) and the
 * kustomizations themselves are not manifests.
 */
final class KubernetesManifests {

  static final Path DIR = Path.of("kubernetes");
  static final Path ORIGIN_ACCESS = DIR.resolve("origin-access");
  static final String KUSTOMIZATION = "kustomization.yaml";
  static final String SECRET_TEMPLATE = "secret.example.yaml";
  static final String CONFIG_FILE = "anteroom.yml";

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** One object and the file it came from. */
  record Manifest(Path file, HasMetadata object) {}

  private KubernetesManifests() {}

  /** Every manifest, parsed once per test run. */
  static List<Manifest> all() {
    return Parsed.ALL;
  }

  private static final class Parsed {
    static final List<Manifest> ALL = load();
  }

  private static List<Manifest> load() {
    List<Manifest> manifests = new ArrayList<>();
    for (Path file : manifestFiles()) {
      for (String document : documents(YamlFiles.read(file))) {
        manifests.add(new Manifest(file, parse(file, document)));
      }
    }
    return List.copyOf(manifests);
  }

  /** The manifests of one kind. */
  static <T extends HasMetadata> List<T> all(Class<T> kind) {
    return all().stream().map(Manifest::object).filter(kind::isInstance).map(kind::cast).toList();
  }

  static <T extends HasMetadata> T named(Class<T> kind, String name) {
    return all(kind).stream()
        .filter(o -> o.getMetadata().getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind.getSimpleName() + " " + name));
  }

  static Deployment gateway() {
    return named(Deployment.class, "anteroom-gateway");
  }

  static Deployment worker() {
    return named(Deployment.class, "anteroom-admission-worker");
  }

  /** Every YAML file under {@code deploy/kubernetes} that holds manifests. */
  static List<Path> manifestFiles() {
    try (Stream<Path> files = Files.walk(DIR)) {
      return files
          .filter(Files::isRegularFile)
          .filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml"))
          .filter(f -> !f.getFileName().toString().equals(KUSTOMIZATION))
          .filter(f -> !f.getFileName().toString().equals(CONFIG_FILE))
          .sorted()
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Map<String, Object> kustomization(Path dir) {
    return YamlFiles.load(dir.resolve(KUSTOMIZATION));
  }

  /**
   * The ConfigMaps the base kustomization generates, with their keys (values of files are left
   * empty: only the names matter for references).
   */
  static Map<String, ConfigMap> generatedConfigMaps() {
    Map<String, ConfigMap> generated = new LinkedHashMap<>();
    for (Object entry : YamlFiles.list(kustomization(DIR).get("configMapGenerator"))) {
      Map<String, Object> generator = YamlFiles.map(entry);
      Map<String, String> data = new LinkedHashMap<>();
      for (Object file : YamlFiles.list(generator.get("files"))) {
        String spec = (String) file;
        String key = spec.contains("=") ? spec.substring(0, spec.indexOf('=')) : fileName(spec);
        data.put(key, "");
      }
      for (Object literal : YamlFiles.list(generator.get("literals"))) {
        String spec = (String) literal;
        data.put(spec.substring(0, spec.indexOf('=')), spec.substring(spec.indexOf('=') + 1));
      }
      String name = (String) generator.get("name");
      generated.put(
          name,
          new ConfigMapBuilder()
              .withNewMetadata()
              .withName(name)
              .endMetadata()
              .withData(data)
              .build());
    }
    return generated;
  }

  /** The keys of the Secret {@code name} as the manifests (the template) define it. */
  static List<String> secretKeys(String name) {
    Secret secret = named(Secret.class, name);
    List<String> keys = new ArrayList<>();
    if (secret.getStringData() != null) {
      keys.addAll(secret.getStringData().keySet());
    }
    if (secret.getData() != null) {
      keys.addAll(secret.getData().keySet());
    }
    return keys;
  }

  /** The documents of a multi-document YAML text, leaving out those with only comments. */
  static List<String> documents(String yaml) {
    return Arrays.stream(yaml.split("(?m)^---[ \\t]*$"))
        .filter(d -> d.lines().anyMatch(l -> !l.isBlank() && !l.stripLeading().startsWith("#")))
        .toList();
  }

  static HasMetadata parse(Path file, String document) {
    Object parsed = SERIALIZATION.unmarshal(document);
    if (!(parsed instanceof HasMetadata object)) {
      throw new AssertionError(file + ": not a Kubernetes object: " + parsed);
    }
    return object;
  }

  private static String fileName(String path) {
    return Path.of(path).getFileName().toString();
  }
}
