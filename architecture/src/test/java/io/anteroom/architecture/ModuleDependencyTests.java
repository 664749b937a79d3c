package io.anteroom.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import org.junit.jupiter.api.Test;

/**
 * Which module's production code may use which. The poms already keep a module from compiling
 * against a module it does not depend on, or depends on in test scope only (gateway and worker on
 * each other, queue-core on the apps, the apps on test-support); these rules state the same so that
 * a dependency added to a pom fails here. What the poms cannot prevent is checked only here:
 * classes of a library that came in transitively (origin-guard), and a module's main code using one
 * whose pom lists it for another reason (the simulator's test-support, the bench).
 */
class ModuleDependencyTests {

  /**
   * The origin guard's servlet filter, WebFlux filter and Spring Boot auto-configuration with its
   * settings: used only where the origin has those frameworks already.
   */
  private static final String ADAPTERS =
      "io\\.anteroom\\.guard\\."
          + "(PassGuardFilter|PassGuardWebFilter|PassGuardAutoConfiguration|GuardProperties)"
          + "(\\$.*)?";

  @Test
  void queueCoreUsesNoOtherModule() {
    usesOnly(Modules.QUEUE_CORE);
  }

  @Test
  void testSupportUsesNoOtherModule() {
    usesOnly(Modules.TEST_SUPPORT);
  }

  @Test
  void gatewayUsesOnlyQueueCore() {
    usesOnly(Modules.GATEWAY, Modules.QUEUE_CORE);
  }

  @Test
  void workerUsesOnlyQueueCore() {
    usesOnly(Modules.ADMISSION_WORKER, Modules.QUEUE_CORE);
  }

  @Test
  void simulatorUsesOnlyQueueCoreAndTestSupport() {
    usesOnly(Modules.SIMULATOR, Modules.QUEUE_CORE, Modules.TEST_SUPPORT);
  }

  @Test
  void originGuardUsesOnlyNimbusAndTheFrameworksOfItsAdapters() {
    classes()
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage(
            "java..",
            "javax..",
            "com.nimbusds..",
            "io.anteroom.guard..",
            "jakarta.servlet..",
            "org.springframework..",
            "reactor.core..")
        .check(Modules.ORIGIN_GUARD.classes());
  }

  /** The verifier and what it needs work in a plain Java origin: Java and nimbus-jose-jwt only. */
  @Test
  void originGuardsVerifierNeedsNoFramework() {
    classes()
        .that()
        .haveNameNotMatching(ADAPTERS)
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "javax..", "com.nimbusds..", "io.anteroom.guard..")
        .check(Modules.ORIGIN_GUARD.classes());
  }

  /** {@code module}'s production code uses no other module than {@code allowed}. */
  private static void usesOnly(Modules module, Modules... allowed) {
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(Modules.packagesOfAllBut(module, allowed))
        .check(module.classes());
  }
}
