package io.anteroom.gateway.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.anteroom.gateway.admin.AdminProperties.TokenEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

class AdminPropertiesTests {

  /** {@code printf %s test | sha256sum}. */
  static final String TEST_DIGEST =
      "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

  static final String OTHER_DIGEST = HexFormat.of().formatHex(NamedToken.sha256("other"));

  @TempDir Path dir;

  @Test
  void tokenIsReadFromTheEnvironmentVariableAnteroomAdminToken() {
    AdminProperties properties =
        bind(
            new SystemEnvironmentPropertySource(
                StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                Map.of("ANTEROOM_ADMIN_TOKEN", "from-the-environment-0123")));

    assertThat(properties.token()).isEqualTo("from-the-environment-0123");
    assertThat(properties.enabled()).isTrue();
  }

  @Test
  void theSimpleTokenIsTheTokenNamedAdminWithTheAdminRole() {
    AdminProperties properties = simple("from-the-environment-0123");

    assertThat(properties.named())
        .singleElement()
        .satisfies(
            token -> {
              assertThat(token.name()).isEqualTo("admin");
              assertThat(token.role()).isEqualTo(Role.ADMIN);
              assertThat(token.matches(NamedToken.sha256("from-the-environment-0123"))).isTrue();
            });
  }

  @Test
  void namedTokensBindWithTheirRoleAndDigest() {
    AdminProperties properties =
        bind(
            Map.of(
                "anteroom.admin.tokens.alice.role",
                "operator",
                "anteroom.admin.tokens.alice.sha256",
                TEST_DIGEST.toUpperCase(),
                "anteroom.admin.tokens.night_desk-2.role",
                "Viewer",
                "anteroom.admin.tokens.night_desk-2.sha256",
                OTHER_DIGEST));

    assertThat(properties.named())
        .extracting(NamedToken::toString)
        .containsExactlyInAnyOrder("alice(operator)", "night_desk-2(viewer)");
    assertThat(properties.tokens().get("alice"))
        .as("kept in lower case")
        .isEqualTo(new TokenEntry("operator", TEST_DIGEST));
  }

  @Test
  void noOrBlankTokenTurnsTheApiOff() {
    assertThat(simple(null).enabled()).isFalse();
    assertThat(simple("  ").enabled()).isFalse();
    assertThat(simple("").token()).isNull();
    assertThat(new AdminProperties(null, Map.of(), " ").tokenDir()).isNull();
  }

  @Test
  void aShortTokenStopsStartUpWithAMessageNamingTheProperty() {
    assertThatThrownBy(() -> simple("short"))
        .hasMessageContaining("anteroom.admin.token")
        .hasMessageContaining("at least 16");
  }

  @Test
  void aPlaceholderWithSpacesIsRefusedAtStart() {
    assertThatThrownBy(() -> simple("REPLACE ME with the output of: openssl rand -hex 32"))
        .hasMessageContaining("anteroom.admin.token")
        .hasMessageContaining("no spaces");
    assertThat(simple("0123456789abcdef_-.~+/=").enabled()).isTrue();
  }

  @Test
  void aBadRoleStopsStartUpNamingTheEntryAndTheRoles() {
    assertThatThrownBy(() -> named("alice", new TokenEntry("root", TEST_DIGEST)))
        .hasMessageContaining("anteroom.admin.tokens.alice")
        .hasMessageContaining("viewer, operator, admin")
        .hasMessageContaining("'root'");
    assertThatThrownBy(() -> named("alice", new TokenEntry(null, TEST_DIGEST)))
        .hasMessageContaining("anteroom.admin.tokens.alice");
  }

  @Test
  void aBadDigestStopsStartUpSayingHowToMakeOne() {
    for (String digest :
        new String[] {null, "", TEST_DIGEST.substring(1), "test", "z".repeat(64)}) {
      assertThatThrownBy(() -> named("alice", new TokenEntry("viewer", digest)))
          .as(digest)
          .hasMessageContaining("anteroom.admin.tokens.alice")
          .hasMessageContaining("sha256sum");
    }
  }

  @Test
  void aBadNameStopsStartUp() {
    assertThatThrownBy(() -> named("alice smith", new TokenEntry("viewer", TEST_DIGEST)))
        .hasMessageContaining("letters, digits, '-' or '_'");
    assertThatThrownBy(() -> named("a".repeat(65), new TokenEntry("viewer", TEST_DIGEST)))
        .hasMessageContaining("letters, digits");
  }

  @Test
  void oneTokenUnderTwoNamesStopsStartUp() {
    Map<String, TokenEntry> tokens = new LinkedHashMap<>();
    tokens.put("alice", new TokenEntry("viewer", TEST_DIGEST));
    tokens.put("bob", new TokenEntry("admin", TEST_DIGEST));

    assertThatThrownBy(() -> new AdminProperties(null, tokens, null))
        .hasMessageContaining("alice and bob are the same token");
  }

  @Test
  void theSimpleTokenAndANamedTokenCalledAdminStopStartUp() {
    assertThatThrownBy(
            () ->
                new AdminProperties(
                    "0123456789abcdef0123",
                    Map.of("admin", new TokenEntry("viewer", TEST_DIGEST)),
                    null))
        .hasMessageContaining("anteroom.admin.token")
        .hasMessageContaining("named admin is configured already");
  }

  @Test
  void tokenDirGivesOneTokenPerFileAndSkipsTheMountsOwnFiles() throws IOException {
    Files.writeString(dir.resolve("alice"), "operator:" + TEST_DIGEST + "\n");
    Files.writeString(dir.resolve("bob"), "  admin:" + OTHER_DIGEST);
    Files.writeString(dir.resolve("..data"), "not a token");
    Files.createDirectory(dir.resolve("..2026_12_04"));

    AdminProperties properties =
        new AdminProperties(
            "0123456789abcdef0123",
            Map.of(
                "carol",
                new TokenEntry("viewer", HexFormat.of().formatHex(NamedToken.sha256("c")))),
            dir.toString());

    assertThat(properties.named())
        .extracting(NamedToken::toString)
        .containsExactlyInAnyOrder(
            "carol(viewer)", "alice(operator)", "bob(admin)", "admin(admin)");
  }

  @Test
  void aMalformedTokenFileStopsStartUpNamingTheFile() throws IOException {
    Files.writeString(dir.resolve("alice"), TEST_DIGEST);
    assertThatThrownBy(() -> new AdminProperties(null, Map.of(), dir.toString()))
        .hasMessageContaining("anteroom.admin.token-dir: file alice")
        .hasMessageContaining("<role>:<sha256 hex>");

    Files.writeString(dir.resolve("alice"), "superuser:" + TEST_DIGEST);
    assertThatThrownBy(() -> new AdminProperties(null, Map.of(), dir.toString()))
        .hasMessageContaining("anteroom.admin.token-dir: file alice")
        .hasMessageContaining("viewer, operator, admin");

    assertThatThrownBy(() -> new AdminProperties(null, Map.of(), dir.resolve("nope").toString()))
        .hasMessageContaining("anteroom.admin.token-dir")
        .hasMessageContaining("is not a directory");
  }

  @Test
  void toStringShowsNamesAndRolesButNeverATokenOrDigest() {
    AdminProperties properties =
        new AdminProperties(
            "secret-token-0123456789",
            Map.of("alice", new TokenEntry("viewer", TEST_DIGEST)),
            null);

    assertThat(properties.toString())
        .doesNotContain("secret")
        .doesNotContain(TEST_DIGEST)
        .contains("alice(viewer)", "admin(admin)");
    assertThat(simple(null).toString()).contains("(none)");
  }

  private static AdminProperties simple(String token) {
    return new AdminProperties(token, null, null);
  }

  private static AdminProperties named(String name, TokenEntry entry) {
    Map<String, TokenEntry> tokens = new LinkedHashMap<>();
    tokens.put(name, entry);
    return new AdminProperties(null, tokens, null);
  }

  private static AdminProperties bind(Map<String, String> properties) {
    return new Binder(new MapConfigurationPropertySource(properties))
        .bind("anteroom.admin", AdminProperties.class)
        .get();
  }

  private static AdminProperties bind(SystemEnvironmentPropertySource environment) {
    MutablePropertySources sources = new MutablePropertySources();
    sources.addFirst(environment);
    return new Binder(ConfigurationPropertySources.from(sources))
        .bind("anteroom.admin", AdminProperties.class)
        .get();
  }
}
