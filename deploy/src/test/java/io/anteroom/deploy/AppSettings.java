package io.anteroom.deploy;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What an app's {@code application.yml} says about how it is reached: the ports, the actuator
 * endpoints it exposes and whether the Kubernetes health groups are on. Tests run in {@code
 * deploy/}, so the apps' resources are one level up.
 *
 * @param serverPort {@code server.port}
 * @param managementPort {@code management.server.port}, or the server port when the actuator shares
 *     it
 * @param exposedEndpoints {@code management.endpoints.web.exposure.include}
 * @param healthProbes {@code management.endpoint.health.probes.enabled}, which adds {@code
 *     /actuator/health/liveness} and {@code /readiness}
 */
record AppSettings(
    int serverPort, int managementPort, Set<String> exposedEndpoints, boolean healthProbes) {

  static final String LIVENESS = "/actuator/health/liveness";
  static final String READINESS = "/actuator/health/readiness";
  static final String PROMETHEUS = "/actuator/prometheus";

  static final Path GATEWAY_YML = Path.of("../gateway/src/main/resources/application.yml");
  static final Path WORKER_YML = Path.of("../admission-worker/src/main/resources/application.yml");

  static AppSettings gateway() {
    return read(GATEWAY_YML);
  }

  static AppSettings worker() {
    return read(WORKER_YML);
  }

  static AppSettings read(Path file) {
    Map<String, Object> yaml = YamlFiles.load(file);
    int server =
        Integer.parseInt(
            YamlFiles.string(yaml, "server.port")
                .orElseThrow(() -> new IllegalStateException(file + " has no server.port")));
    int management =
        YamlFiles.string(yaml, "management.server.port").map(Integer::parseInt).orElse(server);
    Set<String> exposed =
        Arrays.stream(
                YamlFiles.string(yaml, "management.endpoints.web.exposure.include")
                    .orElse("")
                    .split(","))
            .map(String::trim)
            .filter(s -> !s.isEmpty())
            .collect(Collectors.toSet());
    boolean probes =
        Boolean.parseBoolean(
            YamlFiles.string(yaml, "management.endpoint.health.probes.enabled").orElse("false"));
    return new AppSettings(server, management, exposed, probes);
  }
}
