package io.anteroom.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.anteroom.testing.redis.RedisServerExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;

/** Bad configuration stops start-up with a message naming each bad property. */
class WorkerStartupIntegrationTests {

  @RegisterExtension static RedisServerExtension redis = RedisServerExtension.create();

  @Test
  void invalidRoomPolicyStopsStartUpNamingTheProperty() {
    Throwable error =
        catchThrowable(
            () ->
                new SpringApplicationBuilder(AdmissionWorkerApplication.class)
                    .web(WebApplicationType.NONE)
                    .run(
                        "--ANTEROOM_CONFIG=does-not-exist.yml",
                        "--anteroom.redis.uri=" + redis.uri(),
                        "--anteroom.rooms.shop.max-active=0",
                        "--anteroom.rooms.shop.session-duration=300")
                    .close());

    assertThat(rootMessages(error))
        .contains("anteroom.rooms.shop.max-active: must be at least 1")
        .contains("anteroom.rooms.shop.session-duration: must be a whole number with a unit");
  }

  @Test
  void tickWithoutAUnitStopsStartUp() {
    Throwable error =
        catchThrowable(
            () ->
                new SpringApplicationBuilder(AdmissionWorkerApplication.class)
                    .web(WebApplicationType.NONE)
                    .run(
                        "--ANTEROOM_CONFIG=does-not-exist.yml",
                        "--anteroom.redis.uri=" + redis.uri(),
                        "--anteroom.worker.tick=250")
                    .close());

    assertThat(rootMessages(error)).contains("anteroom.worker.tick: must be a whole number");
  }

  @Test
  void refuseToStartWhenAnAnteroomKeyIsUnknownThenNameTheNearestKnownOne() {
    Throwable error =
        catchThrowable(
            () ->
                new SpringApplicationBuilder(AdmissionWorkerApplication.class)
                    .web(WebApplicationType.NONE)
                    .run(
                        "--ANTEROOM_CONFIG=does-not-exist.yml",
                        "--anteroom.redis.uri=" + redis.uri(),
                        "--anteroom.worker.tik=100ms",
                        "--anteroom.redis.urii=" + redis.uri())
                    .close());

    assertThat(rootMessages(error))
        .contains("anteroom.worker.tik is not a setting; did you mean anteroom.worker.tick?")
        .contains("anteroom.redis.urii is not a setting; did you mean anteroom.redis.uri?");
  }

  @Test
  void startWithTheSharedConfigurationAndTheGatewaysSettings() {
    Throwable error =
        catchThrowable(
            () ->
                new SpringApplicationBuilder(AdmissionWorkerApplication.class)
                    .web(WebApplicationType.NONE)
                    .run(
                        "--ANTEROOM_CONFIG=../config/anteroom.yml",
                        "--anteroom.redis.uri=" + redis.uri(),
                        "--anteroom.gateway.trusted-proxies=10.0.0.0/8",
                        "--anteroom.gateway.ipv6-prefix=56",
                        "--anteroom.visitors.identity-secret=identity-secret-of-the-tests",
                        "--anteroom.tokens.keys.main=AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
                        "--anteroom.admin.token=0123456789abcdef0123456789abcdef")
                    .close());

    assertThat(error).isNull();
  }

  private static String rootMessages(Throwable error) {
    StringBuilder all = new StringBuilder();
    for (Throwable t = error; t != null; t = t.getCause()) {
      all.append(t.getMessage()).append('\n');
    }
    return all.toString();
  }
}
