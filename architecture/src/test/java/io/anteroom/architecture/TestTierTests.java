package io.anteroom.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The unit tier (README, "Tests"): a class named {@code *Tests}, and not {@code *IntegrationTests},
 * starts no redis-server, no Spring context and no server. The build also refuses to start a
 * redis-server in that tier; this catches the rest before it runs.
 */
class TestTierTests {

  @Test
  void unitTestsUseNoRedisSpringContextOrServer() {
    noClasses()
        .that()
        .haveNameMatching(".*Tests(\\$.*)?")
        .and()
        .haveNameNotMatching(".*IntegrationTests(\\$.*)?")
        .should()
        .dependOnClassesThat()
        .haveNameMatching(
            "io\\.anteroom\\.testing\\.redis\\..*"
                + "|io\\.anteroom\\.testing\\.LatencyProxy"
                + "|io\\.anteroom\\.gateway\\.(GatewayApp|GatewayIntegrationTest|WireMockOrigin)"
                + "|org\\.springframework\\.boot\\.test\\.context\\..*"
                + "|org\\.springframework\\.context\\.annotation\\.AnnotationConfigApplicationContext"
                + "|org\\.springframework\\.boot\\.SpringApplication"
                + "|com\\.github\\.tomakehurst\\.wiremock\\..*"
                + "|reactor\\.netty\\.http\\.server\\..*")
        .check(testClasses());
  }

  private static JavaClasses testClasses() {
    Path[] folders =
        Arrays.stream(Modules.values())
            .map(
                module -> Modules.root().resolve(module.directory()).resolve("target/test-classes"))
            .filter(Files::isDirectory)
            .toArray(Path[]::new);
    return new ClassFileImporter().importPaths(folders);
  }
}
