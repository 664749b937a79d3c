package io.anteroom.deploy;

import static io.anteroom.deploy.PodTemplates.podLabels;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Who may reach Redis and the origin, worked out with the pods' real labels. */
class NetworkPolicyTests {

  @Test
  void onlyAnteroomPodsAndRedisItselfMayReachRedis() {
    NetworkPolicy policy = KubernetesManifests.named(NetworkPolicy.class, "anteroom-redis-access");
    List<NetworkPolicyPeer> peers = policy.getSpec().getIngress().get(0).getFrom();
    Map<String, String> redisPods = policy.getSpec().getPodSelector().getMatchLabels();

    assertThat(policy.getSpec().getIngress()).hasSize(1);
    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
    assertThat(peers).allSatisfy(p -> assertThat(p.getNamespaceSelector()).isNull());
    for (Map<String, String> pods :
        List.of(
            podLabels(KubernetesManifests.gateway()),
            podLabels(KubernetesManifests.worker()),
            redisPods)) {
      assertThat(peers)
          .anySatisfy(p -> assertThat(LabelSelectors.matches(p.getPodSelector(), pods)).isTrue());
    }
    // An empty pod selector would let every pod of the namespace in.
    assertThat(peers)
        .noneSatisfy(
            p ->
                assertThat(LabelSelectors.matches(p.getPodSelector(), Map.of("app", "other")))
                    .isTrue());
    assertThat(
            policy.getSpec().getIngress().get(0).getPorts().stream()
                .map(NetworkPolicyPort::getPort))
        .contains(new IntOrString(6379), new IntOrString(26379), new IntOrString(16379));
  }

  @Test
  void onlyGatewayPodsOfTheAnteroomNamespaceMayReachTheOrigin() {
    NetworkPolicy policy = KubernetesManifests.named(NetworkPolicy.class, "anteroom-origin-access");
    String namespace =
        (String) KubernetesManifests.kustomization(KubernetesManifests.DIR).get("namespace");
    Map<String, String> anteroomNamespace = Map.of("kubernetes.io/metadata.name", namespace);
    Map<String, String> otherNamespace = Map.of("kubernetes.io/metadata.name", "elsewhere");

    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
    assertThat(policy.getSpec().getIngress())
        .singleElement()
        .satisfies(rule -> assertThat(rule.getPorts()).isNullOrEmpty());
    assertThat(policy.getSpec().getIngress().get(0).getFrom())
        .singleElement()
        .satisfies(
            peer -> {
              assertThat(LabelSelectors.matches(peer.getNamespaceSelector(), anteroomNamespace))
                  .isTrue();
              assertThat(LabelSelectors.matches(peer.getNamespaceSelector(), otherNamespace))
                  .isFalse();
              assertThat(
                      LabelSelectors.matches(
                          peer.getPodSelector(), podLabels(KubernetesManifests.gateway())))
                  .isTrue();
              assertThat(
                      LabelSelectors.matches(
                          peer.getPodSelector(), podLabels(KubernetesManifests.worker())))
                  .isFalse();
            });
  }

  @Test
  void anyoneMayReachTheGatewaysHttpPortButOnlyInsidersItsManagementPort() {
    NetworkPolicy policy =
        KubernetesManifests.named(NetworkPolicy.class, "anteroom-gateway-access");
    Container gateway = PodTemplates.container(KubernetesManifests.gateway());
    String namespace =
        (String) KubernetesManifests.kustomization(KubernetesManifests.DIR).get("namespace");
    Map<String, String> otherPod = Map.of("app.kubernetes.io/name", "something-else");
    Map<String, String> otherNamespace = Map.of("kubernetes.io/metadata.name", "elsewhere");

    assertThat(
            LabelSelectors.matches(
                policy.getSpec().getPodSelector(), podLabels(KubernetesManifests.gateway())))
        .isTrue();
    assertThat(policy.getSpec().getPolicyTypes()).containsExactly("Ingress");
    assertThat(policy.getSpec().getIngress()).hasSize(2);
    for (NetworkPolicyIngressRule rule : policy.getSpec().getIngress()) {
      assertThat(rule.getPorts()).hasSize(1);
      int port = PodTemplates.portNumber(gateway, rule.getPorts().get(0).getPort());
      if (port == AppSettings.gateway().serverPort()) {
        assertThat(rule.getFrom()).as("visitors come from anywhere").isNullOrEmpty();
        continue;
      }
      assertThat(port).isEqualTo(AppSettings.gateway().managementPort());
      assertThat(rule.getFrom()).isNotEmpty();
      for (NetworkPolicyPeer peer : rule.getFrom()) {
        assertThat(peer.getIpBlock()).isNull();
        if (peer.getNamespaceSelector() == null) {
          assertThat(LabelSelectors.matches(peer.getPodSelector(), otherPod))
              .as("pods of the policy's own namespace (%s)", namespace)
              .isTrue();
        } else {
          assertThat(LabelSelectors.matches(peer.getNamespaceSelector(), otherNamespace))
              .as("not every namespace")
              .isFalse();
        }
      }
    }
  }
}
