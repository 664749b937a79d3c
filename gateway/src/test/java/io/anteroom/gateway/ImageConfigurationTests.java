package io.anteroom.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.testing.build.AppSettings;
import io.anteroom.testing.build.JibSettings;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Holds the gateway's Jib image configuration to what the gateway runs and reads. */
class ImageConfigurationTests {

  final JibSettings jib = JibSettings.read();
  final AppSettings application = AppSettings.ofModule();

  @Test
  void imageStartsTheGatewayApplication() {
    assertThat(jib.value("container/mainClass")).isEqualTo(GatewayApplication.class.getName());
  }

  @Test
  void imageRunsTheGatewayAsNonRootOnItsPorts() {
    // Numeric, so Kubernetes' runAsNonRoot can verify it without reading /etc/passwd.
    assertThat(jib.value("container/user")).matches("[1-9]\\d*(:\\d+)?");
    assertThat(jib.values("container/ports/port"))
        .containsExactlyInAnyOrder(
            application.get("server.port").toString(),
            application.get("management.server.port").toString());
  }

  @Test
  void imageCarriesTheSharedConfigWhereAnteroomConfigPoints() {
    String from = jib.value("extraDirectories/paths/path/from");
    assertThat(Path.of(from.replace("${project.basedir}", "."), "anteroom.yml")).isRegularFile();
    assertThat(jib.value("extraDirectories/paths/path/includes")).isEqualTo("anteroom.yml");
    assertThat(jib.value("container/environment/ANTEROOM_CONFIG"))
        .isEqualTo(jib.value("extraDirectories/paths/path/into") + "/anteroom.yml");
    assertThat((String) application.get("spring.config.import")).contains("${ANTEROOM_CONFIG");
  }

  @Test
  void imageIsNamedAfterTheModule() {
    assertThat(jib.value("to/image")).contains("/gateway:");
  }

  @Test
  void defaultBuildNeverBuildsTheImage() {
    assertThat(jib.executions()).isZero();
  }
}
