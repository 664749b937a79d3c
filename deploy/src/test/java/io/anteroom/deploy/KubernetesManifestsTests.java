package io.anteroom.deploy;

import static io.anteroom.deploy.PodTemplates.container;
import static io.anteroom.deploy.PodTemplates.env;
import static io.anteroom.deploy.PodTemplates.mount;
import static io.anteroom.deploy.PodTemplates.pod;
import static io.anteroom.deploy.PodTemplates.podLabels;
import static io.anteroom.deploy.PodTemplates.portNumber;
import static io.anteroom.deploy.PodTemplates.ports;
import static io.anteroom.deploy.PodTemplates.volume;
import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.deploy.KubernetesManifests.Manifest;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class KubernetesManifestsTests {

  private static final AppSettings GATEWAY = AppSettings.gateway();
  private static final AppSettings WORKER = AppSettings.worker();

  @Test
  void everyManifestParsesAsATypedObjectWithoutUnknownFields() {
    List<Manifest> manifests = KubernetesManifests.all();

    assertThat(manifests)
        .allSatisfy(
            m -> {
              assertThat(m.object())
                  .as(m.file().toString())
                  .isNotInstanceOf(GenericKubernetesResource.class);
              assertThat(UnknownFields.in(m.object())).as(m.file().toString()).isEmpty();
            });
    assertThat(manifests.stream().map(m -> m.object().getKind()))
        .containsExactlyInAnyOrder(
            "Namespace",
            "Deployment",
            "Service",
            "Service",
            "HorizontalPodAutoscaler",
            "PodDisruptionBudget",
            "Deployment",
            "PodDisruptionBudget",
            "NetworkPolicy",
            "NetworkPolicy",
            "NetworkPolicy",
            "Secret");
  }

  @Test
  void kustomizationAppliesEveryManifestButTheSecretTemplate() {
    List<Object> resources =
        YamlFiles.list(KubernetesManifests.kustomization(KubernetesManifests.DIR).get("resources"));
    Set<String> manifestsHere =
        KubernetesManifests.manifestFiles().stream()
            .filter(f -> f.getParent().equals(KubernetesManifests.DIR))
            .map(f -> f.getFileName().toString())
            .collect(Collectors.toSet());

    assertThat(resources).doesNotContain(KubernetesManifests.SECRET_TEMPLATE);
    assertThat(resources)
        .containsExactlyInAnyOrderElementsOf(
            manifestsHere.stream()
                .filter(f -> !f.equals(KubernetesManifests.SECRET_TEMPLATE))
                .toList());
    assertThat(
            YamlFiles.list(
                KubernetesManifests.kustomization(KubernetesManifests.ORIGIN_ACCESS)
                    .get("resources")))
        .allSatisfy(
            r -> assertThat(KubernetesManifests.ORIGIN_ACCESS.resolve((String) r)).isRegularFile());
  }

  @Test
  void generatedConfigMapHoldsAnExactCopyOfTheSharedConfig() throws Exception {
    ConfigMap config = KubernetesManifests.generatedConfigMaps().get("anteroom-config");
    Path copy = KubernetesManifests.DIR.resolve(KubernetesManifests.CONFIG_FILE);

    assertThat(config.getData()).containsOnlyKeys(KubernetesManifests.CONFIG_FILE);
    assertThat(Files.readString(copy))
        .as(
            "%s must equal %s; copy it over after changing the shared config",
            copy, AppEnvironment.SHARED_CONFIG)
        .isEqualTo(Files.readString(AppEnvironment.SHARED_CONFIG));
  }

  @Test
  void gatewayContainerPortsAreThoseOfItsApplicationYml() {
    Container gateway = container(KubernetesManifests.gateway());

    assertThat(ports(gateway))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("http", GATEWAY.serverPort(), "management", GATEWAY.managementPort()));
  }

  @Test
  void workerContainerPortIsTheActuatorPortOfItsApplicationYml() {
    Container worker = container(KubernetesManifests.worker());

    assertThat(ports(worker))
        .containsExactlyInAnyOrderEntriesOf(Map.of("management", WORKER.managementPort()));
  }

  @Test
  void probesAskTheActuatorHealthGroupsOnTheManagementPort() {
    Map<Deployment, AppSettings> apps =
        Map.of(KubernetesManifests.gateway(), GATEWAY, KubernetesManifests.worker(), WORKER);

    apps.forEach(
        (deployment, app) -> {
          Container container = container(deployment);
          assertProbe(container, container.getStartupProbe(), AppSettings.LIVENESS, app);
          assertProbe(container, container.getLivenessProbe(), AppSettings.LIVENESS, app);
          assertProbe(container, container.getReadinessProbe(), AppSettings.READINESS, app);
        });
  }

  @Test
  void prometheusAnnotationsPointAtTheActuatorOnTheManagementPort() {
    Map<Deployment, AppSettings> apps =
        Map.of(KubernetesManifests.gateway(), GATEWAY, KubernetesManifests.worker(), WORKER);

    apps.forEach(
        (deployment, app) ->
            assertThat(deployment.getSpec().getTemplate().getMetadata().getAnnotations())
                .containsEntry("prometheus.io/scrape", "true")
                .containsEntry("prometheus.io/port", Integer.toString(app.managementPort()))
                .containsEntry("prometheus.io/path", AppSettings.PROMETHEUS));
  }

  @Test
  void everySecretAndConfigMapReferenceNamesAKeyTheManifestsDefine() {
    Map<String, ConfigMap> configMaps = KubernetesManifests.generatedConfigMaps();

    for (Deployment deployment : KubernetesManifests.all(Deployment.class)) {
      for (EnvVar env : container(deployment).getEnv()) {
        EnvVarSource from = env.getValueFrom();
        if (from != null && from.getSecretKeyRef() != null) {
          assertThat(KubernetesManifests.secretKeys(from.getSecretKeyRef().getName()))
              .as(env.getName())
              .contains(from.getSecretKeyRef().getKey());
        }
        if (from != null && from.getConfigMapKeyRef() != null) {
          assertThat(configMaps).containsKey(from.getConfigMapKeyRef().getName());
          assertThat(configMaps.get(from.getConfigMapKeyRef().getName()).getData())
              .as(env.getName())
              .containsKey(from.getConfigMapKeyRef().getKey());
        }
      }
      for (Volume volume : pod(deployment).getVolumes()) {
        if (volume.getConfigMap() != null) {
          assertThat(configMaps).containsKey(volume.getConfigMap().getName());
        }
      }
    }
  }

  @Test
  void configPathIsTheFileOfTheMountedConfigMapWhereTheImagesExpectIt() {
    for (Deployment deployment : KubernetesManifests.all(Deployment.class)) {
      Container container = container(deployment);
      Volume config =
          pod(deployment).getVolumes().stream()
              .filter(v -> v.getConfigMap() != null)
              .filter(v -> v.getConfigMap().getName().equals("anteroom-config"))
              .findFirst()
              .orElseThrow();
      VolumeMount mount = mount(container, config.getName());

      assertThat(env(container))
          .containsEntry(
              "ANTEROOM_CONFIG", mount.getMountPath() + "/" + KubernetesManifests.CONFIG_FILE)
          .containsEntry("ANTEROOM_CONFIG", AppEnvironment.IMAGE_CONFIG_PATH);
      assertThat(mount.getReadOnly()).isTrue();
    }
  }

  @Test
  void containersSetOnlyEnvironmentVariablesTheAppsRead() {
    for (Deployment deployment : KubernetesManifests.all(Deployment.class)) {
      assertThat(env(container(deployment)).keySet())
          .as(deployment.getMetadata().getName())
          .isSubsetOf(AppEnvironment.READ_BY_APPS.keySet());
    }
    assertThat(env(container(KubernetesManifests.gateway())).keySet())
        .containsExactlyInAnyOrder(
            "ANTEROOM_CONFIG",
            "ANTEROOM_REDIS_URI",
            "ANTEROOM_TOKEN_KEY",
            "ANTEROOM_ORIGIN",
            "ANTEROOM_ADMIN_TOKEN");
  }

  @Test
  void workerIsNotGivenTheTokenKeyItHasNoUseFor() {
    assertThat(env(container(KubernetesManifests.worker())).keySet())
        .containsExactlyInAnyOrder("ANTEROOM_CONFIG", "ANTEROOM_REDIS_URI");
  }

  @Test
  void imagesAreTheTwoAnteroomImages() {
    assertThat(container(KubernetesManifests.gateway()).getImage())
        .isEqualTo(AppEnvironment.GATEWAY_IMAGE);
    assertThat(container(KubernetesManifests.worker()).getImage())
        .isEqualTo(AppEnvironment.WORKER_IMAGE);
    assertThat(KubernetesManifests.all(Deployment.class))
        .allSatisfy(d -> assertThat(pod(d).getContainers()).hasSize(1));
  }

  @Test
  void podsRunAsTheImagesNonRootUserWithAReadOnlyRootAndAWritableTmp() {
    for (Deployment deployment : KubernetesManifests.all(Deployment.class)) {
      PodSpec pod = pod(deployment);
      Container container = container(deployment);

      assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
      assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(AppEnvironment.IMAGE_USER);
      assertThat(container.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
      assertThat(container.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
      assertThat(container.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
      VolumeMount tmp =
          container.getVolumeMounts().stream()
              .filter(m -> m.getMountPath().equals("/tmp"))
              .findFirst()
              .orElseThrow();
      assertThat(volume(pod, tmp.getName()).getEmptyDir()).isNotNull();
    }
  }

  @Test
  void selectorsOfDeploymentsServicesAndBudgetsMatchThePodLabels() {
    Map<String, String> gatewayPods = podLabels(KubernetesManifests.gateway());
    Map<String, String> workerPods = podLabels(KubernetesManifests.worker());

    for (Deployment deployment : KubernetesManifests.all(Deployment.class)) {
      assertThat(LabelSelectors.matches(deployment.getSpec().getSelector(), podLabels(deployment)))
          .isTrue();
    }
    assertThat(KubernetesManifests.all(Service.class))
        .allSatisfy(
            s -> {
              assertThat(LabelSelectors.matches(s.getSpec().getSelector(), gatewayPods)).isTrue();
              assertThat(LabelSelectors.matches(s.getSpec().getSelector(), workerPods)).isFalse();
            });
    PodDisruptionBudget gatewayBudget =
        KubernetesManifests.named(PodDisruptionBudget.class, "anteroom-gateway");
    PodDisruptionBudget workerBudget =
        KubernetesManifests.named(PodDisruptionBudget.class, "anteroom-admission-worker");
    assertThat(LabelSelectors.matches(gatewayBudget.getSpec().getSelector(), gatewayPods)).isTrue();
    assertThat(LabelSelectors.matches(gatewayBudget.getSpec().getSelector(), workerPods)).isFalse();
    assertThat(LabelSelectors.matches(workerBudget.getSpec().getSelector(), workerPods)).isTrue();
    assertThat(gatewayBudget.getSpec().getMaxUnavailable()).isEqualTo(new IntOrString(1));
  }

  @Test
  void servicesSendVisitorsToTheHttpPortAndMonitoringToTheManagementPort() {
    Container gateway = container(KubernetesManifests.gateway());
    ServicePort visitors =
        KubernetesManifests.named(Service.class, "anteroom-gateway").getSpec().getPorts().get(0);
    List<ServicePort> management =
        KubernetesManifests.named(Service.class, "anteroom-gateway-management")
            .getSpec()
            .getPorts();

    assertThat(KubernetesManifests.named(Service.class, "anteroom-gateway").getSpec().getPorts())
        .hasSize(1);
    assertThat(visitors.getPort()).isEqualTo(80);
    assertThat(portNumber(gateway, visitors.getTargetPort())).isEqualTo(GATEWAY.serverPort());
    assertThat(management).hasSize(1);
    assertThat(portNumber(gateway, management.get(0).getTargetPort()))
        .isEqualTo(GATEWAY.managementPort());
  }

  @Test
  void autoscalerOwnsTheGatewayCountSoAnApplyNeverShrinksTheFleet() {
    HorizontalPodAutoscaler hpa =
        KubernetesManifests.named(HorizontalPodAutoscaler.class, "anteroom-gateway");

    assertThat(hpa.getApiVersion()).isEqualTo("autoscaling/v2");
    assertThat(hpa.getSpec().getScaleTargetRef().getKind()).isEqualTo("Deployment");
    assertThat(hpa.getSpec().getScaleTargetRef().getName())
        .isEqualTo(KubernetesManifests.gateway().getMetadata().getName());
    assertThat(hpa.getSpec().getMinReplicas()).isGreaterThanOrEqualTo(3);
    assertThat(hpa.getSpec().getMaxReplicas()).isGreaterThan(hpa.getSpec().getMinReplicas());
    assertThat(hpa.getSpec().getMetrics())
        .singleElement()
        .satisfies(m -> assertThat(m.getResource().getName()).isEqualTo("cpu"));
    assertThat(container(KubernetesManifests.gateway()).getResources().getRequests())
        .as("CPU utilisation is measured against the request")
        .containsKey("cpu");
    assertThat(KubernetesManifests.gateway().getSpec().getReplicas()).isNull();
    assertThat(KubernetesManifests.worker().getSpec().getReplicas()).isEqualTo(2);
  }

  @Test
  void namespaceAndSecretTemplateAreThoseTheKustomizationUses() {
    String namespace =
        (String) KubernetesManifests.kustomization(KubernetesManifests.DIR).get("namespace");

    assertThat(KubernetesManifests.all(Namespace.class))
        .singleElement()
        .satisfies(n -> assertThat(n.getMetadata().getName()).isEqualTo(namespace));
    assertThat(
            KubernetesManifests.named(Secret.class, "anteroom-secrets")
                .getMetadata()
                .getNamespace())
        .isEqualTo(namespace);
    assertThat(KubernetesManifests.secretKeys("anteroom-secrets"))
        .containsExactlyInAnyOrder("token-key", "admin-token", "redis-uri");
  }

  @Test
  void secretTemplateHoldsNoUsableTokenKey() {
    String placeholder =
        KubernetesManifests.named(Secret.class, "anteroom-secrets")
            .getStringData()
            .get("token-key");

    assertThat(placeholder).contains("REPLACE ME");
    assertThat(placeholder).doesNotMatch("[A-Za-z0-9+/_=-]+");
  }

  private static void assertProbe(Container container, Probe probe, String path, AppSettings app) {
    assertThat(probe).as(container.getName()).isNotNull();
    assertThat(probe.getHttpGet().getPath()).isEqualTo(path);
    assertThat(portNumber(container, probe.getHttpGet().getPort())).isEqualTo(app.managementPort());
  }
}
