package io.anteroom.queue.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

class SettingNamesTests {

  /** A section like the gateway's: a list, a map, a scalar. */
  @ConfigurationProperties("anteroom.gate")
  record Gate(List<String> trustedProxies, Map<String, String> keys, int hitCapacity) {}

  /** A section like the identity settings. */
  @ConfigurationProperties("anteroom.visitors")
  record Visitors(String identitySecret) {}

  private final SettingNames names =
      SettingNames.of(
          List.of(AnteroomProperties.class, Gate.class, Visitors.class),
          List.of("anteroom.worker"));

  static StandardEnvironment environment(Map<String, Object> values) {
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().addFirst(new MapPropertySource("test", values));
    return environment;
  }

  @Test
  void knowsTheKeysOfEveryRecordAndItsNestedRecords() {
    assertThat(names.keys())
        .contains(
            "anteroom.key-prefix",
            "anteroom.redis.uri",
            "anteroom.redis.cluster-nodes",
            "anteroom.rooms",
            "anteroom.defaults",
            "anteroom.gate.trusted-proxies",
            "anteroom.gate.keys",
            "anteroom.gate.hit-capacity",
            "anteroom.visitors.identity-secret")
        .doesNotContain("anteroom.redis");
  }

  @Test
  void acceptsKnownKeysListEntriesMapContentsSectionsAndTheOtherAppsSection() {
    Map<String, Object> values = new LinkedHashMap<>();
    values.put("anteroom.key-prefix", "wr");
    values.put("anteroom.redis.uri", "redis://127.0.0.1:6379");
    values.put("anteroom.redis.cluster-nodes[0]", "node-1:6379");
    values.put("anteroom.gate.trusted-proxies[1]", "10.0.0.0/8");
    values.put("anteroom.gate.hitCapacity", "5");
    values.put("anteroom.gate.keys.main", "secret");
    values.put("anteroom.rooms.shop.whatever-the-room-parser-says", "1");
    values.put("anteroom.defaults.admit-per-second", "10");
    values.put("anteroom.visitors", "");
    values.put("anteroom.worker.tick", "250ms");
    values.put("anteroom.worker.anything.at.all", "x");
    values.put("ANTEROOM_CONFIG", "config/anteroom.yml");
    values.put("anteroomish.key", "not ours");

    assertThat(names.unknown(environment(values))).isEmpty();
  }

  @Test
  void refuseWhenAKeyIsUnderTheWrongSectionThenSuggestTheKeyOfThatName() {
    List<String> problems =
        names.unknown(
            environment(
                Map.of("anteroom.visitors.trusted-proxies[0]", "10.0.0.0/8", "anteroom.x", "")));

    assertThat(problems)
        .containsExactlyInAnyOrder(
            "anteroom.visitors.trusted-proxies is not a setting; did you mean"
                + " anteroom.gate.trusted-proxies? (\"anteroom.visitors.trusted-proxies[0]\" from"
                + " property source \"test\")",
            "anteroom.x is not a setting; did you mean anteroom.rooms? (\"anteroom.x\" from"
                + " property source \"test\")");
  }

  @Test
  void refuseWhenAKeyIsMisspelledThenSuggestTheClosestKey() {
    assertThat(names.nearest(ConfigurationPropertyName.of("anteroom.gate.trusted-proxie")))
        .isEqualTo("anteroom.gate.trusted-proxies");
    assertThat(names.nearest(ConfigurationPropertyName.of("anteroom.redis.urii")))
        .isEqualTo("anteroom.redis.uri");
    assertThat(names.nearest(ConfigurationPropertyName.of("anteroom.workers.tick")))
        .isEqualTo("anteroom.worker.tick");
    assertThat(names.nearest(ConfigurationPropertyName.of("anteroom.room.shop.item")))
        .isEqualTo("anteroom.rooms.shop.item");
    assertThat(names.nearest(ConfigurationPropertyName.of("anteroom.gate.key.main")))
        .isEqualTo("anteroom.gate.keys.main");
  }

  @Test
  void environmentVariablesAreNotChecked() {
    StandardEnvironment environment = new StandardEnvironment();
    environment
        .getPropertySources()
        .addFirst(
            new SystemEnvironmentPropertySource(
                "systemEnvironment",
                Map.of(
                    "ANTEROOM_TOKEN_KEY", "key",
                    "ANTEROOM_SHOP_BYPASS_SECRET", "secret",
                    "ANTEROOM_CONFIG", "config/anteroom.yml")));

    assertThat(names.unknown(environment)).isEmpty();
    assertThat(names.unknown(environment(Map.of("anteroom.token.key", "key")))).hasSize(1);
  }

  @Test
  void theCheckStopsStartUpListingEveryUnknownKey() {
    UnknownSettingsCheck check = new UnknownSettingsCheck(names);
    check.setEnvironment(
        environment(Map.of("anteroom.gate.trusted-proxie", "a", "anteroom.gate.hit-capcity", "1")));

    assertThatIllegalStateException()
        .isThrownBy(() -> check.postProcessBeanFactory(null))
        .withMessageStartingWith("unknown settings in the anteroom configuration:\n  ")
        .withMessageContaining("did you mean anteroom.gate.trusted-proxies?")
        .withMessageContaining("did you mean anteroom.gate.hit-capacity?");
  }

  @Test
  void distanceCountsSingleCharacterEdits() {
    assertThat(SettingNames.distance("kitten", "sitting")).isEqualTo(3);
    assertThat(SettingNames.distance("", "abc")).isEqualTo(3);
    assertThat(SettingNames.distance("same", "same")).isZero();
  }
}
