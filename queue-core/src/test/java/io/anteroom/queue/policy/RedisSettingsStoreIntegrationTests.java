package io.anteroom.queue.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.QueueKeys;
import io.anteroom.queue.RedisFixture;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RedisSettingsStoreIntegrationTests {

  @RegisterExtension static RedisFixture fixture = RedisFixture.create();

  final QueueKeys keys = new QueueKeys("wr");

  @Test
  void roomAndQueueOverridesShareTheRoomHashAndComeBackApart() {
    SettingsStore store = new RedisSettingsStore(fixture.connector().commands(), keys);

    store.put("shop", null, Map.of("admit-per-second", "5", "mode", "queue-all")).block();
    store.put("shop", "42", Map.of("mode", "paused")).block();
    store.put("shop", "a b", Map.of("max-active", "3")).block();

    Overrides overrides = store.overrides("shop").block();
    assertThat(overrides.room()).isEqualTo(Map.of("admit-per-second", "5", "mode", "queue-all"));
    assertThat(overrides.queues().get("42")).isEqualTo(Map.of("mode", "paused"));
    assertThat(fixture.sync().hget(keys.settings("shop"), "42/mode")).isEqualTo("paused");
    assertThat(overrides.queues()).hasSize(2);
    fixture
        .sync()
        .hset(keys.settings("shop"), Map.of("bad item/mode", "closed", "/mode", "closed"));
    assertThat(store.overrides("shop").block().queues()).hasSize(2);

    store.remove("shop", null, List.of("mode")).block();
    store.remove("shop", "42", List.of("mode")).block();

    assertThat(store.overrides("shop").block().room()).isEqualTo(Map.of("admit-per-second", "5"));
    assertThat(store.overrides("shop").block().queues()).doesNotContainKey("42");
  }

  @Test
  void changeRemovesAndSetsInOneStep() {
    SettingsStore store = new RedisSettingsStore(fixture.connector().commands(), keys);
    store.put("shop", "42", Map.of("mode", "paused", "max-active", "3")).block();

    store.change("shop", "42", Map.of("admit-per-second", "5"), List.of("mode")).block();
    store.change("shop", null, Map.of("mode", "closed"), List.of()).block();
    store.change("shop", null, Map.of(), List.of("absent")).block();

    Overrides overrides = store.overrides("shop").block();
    assertThat(overrides.queues().get("42"))
        .isEqualTo(Map.of("max-active", "3", "admit-per-second", "5"));
    assertThat(overrides.room()).isEqualTo(Map.of("mode", "closed"));
  }

  @Test
  void everyChangeMovesTheHashsGenerationWhichReadersLeaveOut() {
    SettingsStore store = new RedisSettingsStore(fixture.connector().commands(), keys);
    store.put("shop", null, Map.of("mode", "paused")).block();
    long first = Long.parseLong(fixture.sync().hget(keys.settings("shop"), QueueKeys.GENERATION));

    store.remove("shop", null, List.of("mode")).block();
    long second = Long.parseLong(fixture.sync().hget(keys.settings("shop"), QueueKeys.GENERATION));
    store.change("shop", "42", Map.of("max-active", "3"), List.of()).block();
    long third = Long.parseLong(fixture.sync().hget(keys.settings("shop"), QueueKeys.GENERATION));

    assertThat(second).isGreaterThan(first);
    assertThat(third).isGreaterThan(second);
    Overrides overrides = store.overrides("shop").block();
    assertThat(overrides.room()).isEmpty();
    assertThat(overrides.queues()).containsOnlyKeys("42");
  }
}
