package io.anteroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AppEnvironmentTests {

  @Test
  void everyVariableDeploymentsMaySetIsReadByTheFilesNamedForIt() {
    AppEnvironment.READ_BY_APPS.forEach(
        (name, files) ->
            assertThat(files)
                .allSatisfy(
                    file ->
                        assertThat(YamlFiles.read(file))
                            .as("%s reads %s", file, name)
                            .contains("${" + name + ":")));
  }

  @Test
  void bothAppsEnableTheKubernetesHealthGroupsAndExposePrometheus() {
    for (AppSettings app : new AppSettings[] {AppSettings.gateway(), AppSettings.worker()}) {
      assertThat(app.healthProbes()).isTrue();
      assertThat(app.exposedEndpoints()).contains("health", "prometheus");
    }
  }
}
