package io.anteroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.Map;
import java.util.stream.Collectors;

/** Views of a Deployment's pod template: its single container, ports, environment and volumes. */
final class PodTemplates {

  private PodTemplates() {}

  static PodSpec pod(Deployment deployment) {
    return deployment.getSpec().getTemplate().getSpec();
  }

  static Container container(Deployment deployment) {
    return pod(deployment).getContainers().get(0);
  }

  static Map<String, String> podLabels(Deployment deployment) {
    return deployment.getSpec().getTemplate().getMetadata().getLabels();
  }

  static Map<String, Integer> ports(Container container) {
    return container.getPorts().stream()
        .collect(Collectors.toMap(ContainerPort::getName, ContainerPort::getContainerPort));
  }

  static Map<String, String> env(Container container) {
    return container.getEnv().stream()
        .collect(Collectors.toMap(EnvVar::getName, e -> e.getValue() == null ? "" : e.getValue()));
  }

  /** A probe's or Service's port, given by number or by the container port's name. */
  static int portNumber(Container container, IntOrString port) {
    if (port.getIntVal() != null) {
      return port.getIntVal();
    }
    Integer named = ports(container).get(port.getStrVal());
    assertThat(named).as("container port named %s", port.getStrVal()).isNotNull();
    return named;
  }

  static VolumeMount mount(Container container, String volume) {
    return container.getVolumeMounts().stream()
        .filter(m -> m.getName().equals(volume))
        .findFirst()
        .orElseThrow(() -> new AssertionError("volume " + volume + " is not mounted"));
  }

  static Volume volume(PodSpec pod, String name) {
    return pod.getVolumes().stream()
        .filter(v -> v.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no volume " + name));
  }
}
