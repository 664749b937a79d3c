package io.anteroom.queue.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.anteroom.queue.redis.RedisProperties;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RoomOptionsTests {

  @Test
  void readEveryOptionByTheNameOperatorsWrite() {
    Map<String, String> settings = new LinkedHashMap<>();
    RoomOptions.NAMES.forEach(name -> settings.put(name, name + "-value"));

    RoomOptions options = RoomOptions.of(settings);

    assertThat(RoomOptions.NAMES)
        .contains("item", "item-pattern", "bypass-networks", "bypass-secret", "template")
        .hasSize(RoomOptions.class.getRecordComponents().length);
    assertThat(options).hasNoNullFieldsOrProperties();
    assertThat(options.itemPattern()).isEqualTo("item-pattern-value");
    assertThat(options.bypassExtensions()).containsExactly("bypass-extensions-value");
  }

  @Test
  void readListsWhenCommaSeparatedOrAYamlListThenTrimAndDropBlanks() {
    RoomOptions options =
        RoomOptions.of(
            Map.of(
                "bypass-networks", " 10.0.0.0/8, ,192.0.2.1,",
                "bypass-paths[0]", "/health",
                "bypass-paths[1]", " /status/** ",
                "bypass-extensions.0", "pdf"));

    assertThat(options.bypassNetworks()).containsExactly("10.0.0.0/8", "192.0.2.1");
    assertThat(options.bypassPaths()).containsExactly("/health", "/status/**");
    assertThat(options.bypassExtensions()).containsExactly("pdf");
  }

  @Test
  void readNothingWhenNoOptionIsSet() {
    RoomOptions options = RoomOptions.of(Map.of("max-active", "5"));

    assertThat(options.item()).isNull();
    assertThat(options.identity()).isNull();
    assertThat(options.bypassPaths()).isEmpty();
  }

  @Test
  void splitARoomsSettingsIntoOptionsAndPolicy() {
    AnteroomProperties anteroom =
        new AnteroomProperties(
            "wr",
            new RedisProperties(
                "redis://127.0.0.1:6379", Duration.ofMillis(500), Duration.ofSeconds(1), 10),
            Map.of(),
            Map.of(
                "shop",
                Map.of(
                    "admit-per-second", "3",
                    "item", "path:id",
                    "bypass-networks[0]", "192.0.2.0/24",
                    "language", "ko")));

    assertThat(anteroom.policies().get("shop").admitPerSecond()).isEqualTo(3);
    RoomOptions shop = anteroom.roomOptions().get("shop");
    assertThat(shop.item()).isEqualTo("path:id");
    assertThat(shop.bypassNetworks()).isEqualTo(List.of("192.0.2.0/24"));
    assertThat(shop.language()).isEqualTo("ko");
  }

  @Test
  void tellOptionsFromPolicyKeys() {
    assertThat(RoomOptions.isOption("bypass-networks")).isTrue();
    assertThat(RoomOptions.isOption("bypass-networks[2]")).isTrue();
    assertThat(RoomOptions.isOption("bypass-networks.2")).isTrue();
    assertThat(RoomOptions.isOption("max-active")).isFalse();
    assertThat(RoomOptions.isOption("items")).isFalse();
  }
}
