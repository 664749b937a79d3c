package io.anteroom.deploy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@code deploy/compose.yaml} read as plain YAML, with the few views the tests need. */
final class ComposeFile {

  static final Path FILE = Path.of("compose.yaml");

  /** A bind mount: a path on the host (relative to {@code deploy/}) seen at {@code target}. */
  record Mount(String source, String target) {}

  private final Map<String, Object> services;

  private ComposeFile(Map<String, Object> services) {
    this.services = services;
  }

  static ComposeFile read() {
    return new ComposeFile(YamlFiles.map(YamlFiles.load(FILE).get("services")));
  }

  Map<String, Object> services() {
    return services;
  }

  Map<String, Object> service(String name) {
    Object service = services.get(name);
    if (service == null) {
      throw new AssertionError("compose.yaml has no service " + name);
    }
    return YamlFiles.map(service);
  }

  /** Names of the services running {@code image}. */
  List<String> servicesRunning(String image) {
    return services.keySet().stream()
        .filter(name -> image.equals(service(name).get("image")))
        .sorted()
        .toList();
  }

  /** The environment of a service, written as a map or as {@code NAME=value} lines. */
  Map<String, String> environment(String name) {
    Object env = service(name).get("environment");
    Map<String, String> result = new LinkedHashMap<>();
    if (env instanceof Map<?, ?> map) {
      map.forEach((key, value) -> result.put((String) key, String.valueOf(value)));
    } else {
      for (Object line : YamlFiles.list(env)) {
        String text = (String) line;
        int equals = text.indexOf('=');
        result.put(
            equals < 0 ? text : text.substring(0, equals),
            equals < 0 ? "" : text.substring(equals + 1));
      }
    }
    return result;
  }

  /** Host-path mounts of a service, in short ({@code src:dst:ro}) or long syntax. */
  List<Mount> mounts(String name) {
    List<Mount> mounts = new ArrayList<>();
    for (Object volume : YamlFiles.list(service(name).get("volumes"))) {
      if (volume instanceof String text) {
        String[] parts = text.split(":");
        if (parts.length >= 2 && (parts[0].startsWith(".") || parts[0].startsWith("/"))) {
          mounts.add(new Mount(parts[0], parts[1]));
        }
      } else {
        Map<String, Object> spec = YamlFiles.map(volume);
        if ("bind".equals(spec.get("type"))) {
          mounts.add(new Mount((String) spec.get("source"), (String) spec.get("target")));
        }
      }
    }
    return mounts;
  }

  /** The container-side ports a service exposes to the other services. */
  List<Integer> exposed(String name) {
    return YamlFiles.list(service(name).get("expose")).stream()
        .map(p -> Integer.parseInt(String.valueOf(p)))
        .toList();
  }

  /** The container-side ports a service publishes on the host. */
  List<Integer> published(String name) {
    return YamlFiles.list(service(name).get("ports")).stream()
        .map(String::valueOf)
        .map(p -> p.substring(p.lastIndexOf(':') + 1).replace("/tcp", ""))
        .map(Integer::parseInt)
        .toList();
  }
}
