package io.anteroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.deploy.ComposeFile.Mount;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ComposeFileTests {

  /** Official images the compose file may use besides Anteroom's own. */
  private static final Set<String> OFFICIAL_IMAGES =
      Set.of("redis", "nginx", "haproxy", "prom/prometheus", "grafana/grafana", "eclipse-temurin");

  /** A released version: digits and dots, then an optional variant ({@code 7.2.7-alpine}). */
  private static final Pattern PINNED_TAG = Pattern.compile("v?\\d+\\.\\d+(\\.\\d+)?([._-].+)?");

  private static final Pattern UPSTREAM_SERVER =
      Pattern.compile("^\\s*server\\s+([a-z0-9-]+):(\\d+)\\b", Pattern.MULTILINE);

  private static final AppSettings GATEWAY = AppSettings.gateway();
  private static final AppSettings WORKER = AppSettings.worker();

  private final ComposeFile compose = ComposeFile.read();

  @Test
  void runsTwoGatewaysAndAWorkerFromTheAnteroomImages() {
    assertThat(gateways()).hasSize(2);
    assertThat(compose.servicesRunning(AppEnvironment.WORKER_IMAGE)).hasSize(1);
  }

  @Test
  void everyOtherImageIsAPinnedOfficialImageAndNothingIsBuilt() {
    compose
        .services()
        .keySet()
        .forEach(
            name -> {
              Map<String, Object> service = compose.service(name);
              String image = (String) service.get("image");
              assertThat(service).as(name).doesNotContainKey("build");
              assertThat(image).as(name).isNotNull();
              if (image.equals(AppEnvironment.GATEWAY_IMAGE)
                  || image.equals(AppEnvironment.WORKER_IMAGE)) {
                return;
              }
              int colon = image.lastIndexOf(':');
              assertThat(colon).as("%s: %s has a tag", name, image).isPositive();
              assertThat(image.substring(0, colon)).as(name).isIn(OFFICIAL_IMAGES);
              assertThat(image.substring(colon + 1)).as(name).matches(PINNED_TAG);
            });
  }

  @Test
  void anteroomImagesComeFromTheLocalBuildNeverFromARegistry() {
    for (String name : anteroomServices()) {
      assertThat(compose.service(name)).as(name).containsEntry("pull_policy", "never");
    }
  }

  @Test
  void everyMountedHostPathExistsInTheRepository() {
    List<Mount> mounts = new ArrayList<>();
    compose.services().keySet().forEach(name -> mounts.addAll(compose.mounts(name)));

    assertThat(mounts).isNotEmpty();
    assertThat(mounts)
        .allSatisfy(
            mount -> {
              assertThat(mount.source()).startsWith(".");
              assertThat(Path.of(mount.source())).exists();
            });
  }

  @Test
  void gatewaysAndWorkerExposeThePortsOfTheirApplicationYml() {
    for (String gateway : gateways()) {
      assertThat(compose.exposed(gateway))
          .containsExactlyInAnyOrder(GATEWAY.serverPort(), GATEWAY.managementPort());
      assertThat(compose.published(gateway)).as("visitors come through the proxy").isEmpty();
    }
    assertThat(compose.exposed("worker")).containsExactly(WORKER.managementPort());
  }

  @Test
  void appsGetOnlyVariablesTheyReadAndTheConfigWhereTheyLookForIt() {
    for (String name : anteroomServices()) {
      Map<String, String> env = compose.environment(name);
      assertThat(env.keySet()).as(name).isSubsetOf(AppEnvironment.READ_BY_APPS.keySet());
      assertThat(env).containsEntry("ANTEROOM_CONFIG", AppEnvironment.IMAGE_CONFIG_PATH);
      assertThat(compose.mounts(name))
          .contains(new Mount("../config/anteroom.yml", AppEnvironment.IMAGE_CONFIG_PATH));
      assertThat(URI.create(env.get("ANTEROOM_REDIS_URI")).getHost()).isEqualTo("redis");
      assertThat(compose.services()).containsKey("redis");
    }
  }

  @Test
  void gatewaysShareADemoKeyThatWorksAndSaysItIsNotForProduction() {
    Set<String> keys =
        gateways().stream()
            .map(g -> compose.environment(g).get("ANTEROOM_TOKEN_KEY"))
            .collect(Collectors.toSet());

    assertThat(keys).singleElement().asString().startsWith("${ANTEROOM_TOKEN_KEY:-");
    String demoKey = keys.iterator().next().replaceAll("^\\$\\{ANTEROOM_TOKEN_KEY:-(.*)}$", "$1");
    byte[] secret = Base64.getDecoder().decode(demoKey);
    assertThat(secret.length).isGreaterThanOrEqualTo(32);
    assertThat(new String(secret, StandardCharsets.US_ASCII)).contains("not for production");
  }

  @Test
  void gatewaysForwardToTheShopWhichOnlyTheyCanReach() {
    for (String gateway : gateways()) {
      URI origin = URI.create(compose.environment(gateway).get("ANTEROOM_ORIGIN"));
      assertThat(compose.exposed(origin.getHost())).contains(origin.getPort());
      assertThat(compose.published(origin.getHost())).isEmpty();
    }
    assertThat(compose.service("shop-app")).containsEntry("network_mode", "service:shop");
    assertThat(compose.mounts("shop-app")).contains(new Mount("../demo", "/demo"));
    assertThat(Path.of("../demo/DemoShop.java")).isRegularFile();
  }

  @Test
  void proxyPublishesOnePortSpreadOverEveryGateway() throws Exception {
    Mount config = compose.mounts("proxy").get(0);
    Matcher servers = UPSTREAM_SERVER.matcher(Files.readString(Path.of(config.source())));
    List<String> upstream = new ArrayList<>();
    while (servers.find()) {
      upstream.add(servers.group(1) + ":" + servers.group(2));
    }

    assertThat(config.target()).isEqualTo("/etc/nginx/conf.d/default.conf");
    assertThat(upstream)
        .containsExactlyInAnyOrderElementsOf(
            gateways().stream().map(g -> g + ":" + GATEWAY.serverPort()).toList());
    assertThat(compose.published("proxy")).containsExactly(GATEWAY.serverPort());
  }

  @Test
  void prometheusScrapesEveryAnteroomServiceOnItsManagementPort() {
    Mount config = compose.mounts("prometheus").get(0);
    Map<String, Object> prometheus = YamlFiles.load(Path.of(config.source()));
    List<String> targets = new ArrayList<>();
    for (Object job : YamlFiles.list(prometheus.get("scrape_configs"))) {
      Map<String, Object> scrape = YamlFiles.map(job);
      assertThat(scrape).containsEntry("metrics_path", AppSettings.PROMETHEUS);
      for (Object group : YamlFiles.list(scrape.get("static_configs"))) {
        YamlFiles.list(YamlFiles.map(group).get("targets")).forEach(t -> targets.add((String) t));
      }
    }
    List<String> expected = new ArrayList<>();
    gateways().forEach(g -> expected.add(g + ":" + GATEWAY.managementPort()));
    compose
        .servicesRunning(AppEnvironment.WORKER_IMAGE)
        .forEach(w -> expected.add(w + ":" + WORKER.managementPort()));

    assertThat(config.target()).isEqualTo("/etc/prometheus/prometheus.yml");
    assertThat(targets).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void prometheusLoadsTheAlertRulesMountedBesideItsConfig() {
    List<Mount> mounts = compose.mounts("prometheus");
    Map<String, Object> prometheus = YamlFiles.load(Path.of(mounts.get(0).source()));
    List<Object> ruleFiles = YamlFiles.list(prometheus.get("rule_files"));

    assertThat(ruleFiles).isNotEmpty();
    for (Object file : ruleFiles) {
      Path target = Path.of(mounts.get(0).target()).resolveSibling((String) file);
      assertThat(Path.of(source(mounts, target.toString())).normalize())
          .isEqualTo(AlertRules.RULES);
    }
  }

  @Test
  void grafanaProvisionsPrometheusAndLoadsTheDashboardsFromTheirMount() {
    List<Mount> mounts = compose.mounts("grafana");
    Map<String, Object> datasource =
        YamlFiles.map(
            YamlFiles.list(
                    YamlFiles.load(
                            Path.of(source(mounts, "/etc/grafana/provisioning/datasources"))
                                .resolve("prometheus.yaml"))
                        .get("datasources"))
                .get(0));
    Map<String, Object> provider =
        YamlFiles.map(
            YamlFiles.list(
                    YamlFiles.load(
                            Path.of(source(mounts, "/etc/grafana/provisioning/dashboards"))
                                .resolve("anteroom.yaml"))
                        .get("providers"))
                .get(0));
    String dashboardsIn = (String) YamlFiles.map(provider.get("options")).get("path");
    Path dashboard = Path.of(source(mounts, dashboardsIn)).resolve("anteroom.json");

    URI prometheus = URI.create((String) datasource.get("url"));
    assertThat(compose.published(prometheus.getHost())).contains(prometheus.getPort());
    assertThat(dashboard).isRegularFile();
    assertThat(YamlFiles.read(dashboard))
        .contains("\"uid\": \"" + datasource.get("uid") + "\"")
        .contains("anteroom_gateway_requests_total");
  }

  private List<String> gateways() {
    return compose.servicesRunning(AppEnvironment.GATEWAY_IMAGE);
  }

  private List<String> anteroomServices() {
    List<String> services = new ArrayList<>(gateways());
    services.addAll(compose.servicesRunning(AppEnvironment.WORKER_IMAGE));
    return services;
  }

  private static String source(List<Mount> mounts, String target) {
    return mounts.stream()
        .filter(m -> m.target().equals(target))
        .map(Mount::source)
        .findFirst()
        .orElseThrow(() -> new AssertionError("nothing is mounted at " + target));
  }
}
