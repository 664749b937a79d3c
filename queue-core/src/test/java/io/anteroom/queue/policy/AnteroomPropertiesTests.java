package io.anteroom.queue.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.anteroom.queue.config.AnteroomProperties;
import io.anteroom.queue.config.DurationBinding;
import io.anteroom.queue.redis.RedisProperties;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

class AnteroomPropertiesTests {

  static final RedisProperties REDIS =
      new RedisProperties(
          "redis://127.0.0.1:6379", Duration.ofMillis(500), Duration.ofSeconds(1), 100);

  @Test
  void roomsLayerOverDefaultsOverBuiltIns() {
    AnteroomProperties properties =
        new AnteroomProperties(
            "wr",
            REDIS,
            Map.of("max-active", "50"),
            Map.of("shop", Map.of("admit-per-second", "3"), "tickets", Map.of()));

    assertThat(properties.policies().get("shop").admitPerSecond()).isEqualTo(3);
    assertThat(properties.policies().get("shop").maxActive()).isEqualTo(50);
    assertThat(properties.policies().get("tickets").admitPerSecond())
        .isEqualTo(RoomPolicy.DEFAULTS.admitPerSecond());
  }

  @Test
  void badRoomValuesStopStartUpNamingTheProperty() {
    assertThatThrownBy(
            () ->
                new AnteroomProperties(
                    "wr", REDIS, Map.of(), Map.of("shop", Map.of("max-active", "0"))))
        .hasMessageContaining("anteroom.rooms.shop.max-active: must be at least 1");
    assertThatThrownBy(
            () ->
                new AnteroomProperties(
                    "wr", REDIS, Map.of("abandon-after", "120"), Map.of("shop", Map.of())))
        .hasMessageContaining("anteroom.defaults.abandon-after");
    assertThatThrownBy(
            () -> new AnteroomProperties("wr", REDIS, Map.of(), Map.of("Big Shop", Map.of())))
        .hasMessageContaining("anteroom.rooms.Big Shop");
  }

  @Test
  void refuseWhenARoomsSessionScopeIsNeitherItemNorRoomThenNameTheProperty() {
    assertThatThrownBy(
            () ->
                new AnteroomProperties(
                    "wr", REDIS, Map.of(), Map.of("shop", Map.of("session-scope", "page"))))
        .hasMessageContaining("anteroom.rooms.shop.session-scope: must be one of item, room");
  }

  @Test
  void refuseWhenTheKeyPrefixIsBadThenNameTheProperty() {
    assertThatThrownBy(() -> new AnteroomProperties("w r", REDIS, Map.of(), Map.of()))
        .hasMessage("anteroom.key-prefix: must be 1 to 32 letters, digits, '-' or '_', was 'w r'");
  }

  @Test
  void redisDurationsNeedAUnit() {
    assertThatThrownBy(
            () ->
                DurationBinding.binder(
                        new MapConfigurationPropertySource(
                            Map.of("anteroom.redis.command-timeout", "500")))
                    .bindOrCreate("anteroom.redis", RedisProperties.class))
        .hasMessageContaining("anteroom.redis.command-timeout");
  }
}
