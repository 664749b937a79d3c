package io.anteroom.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import org.junit.jupiter.api.Test;

/**
 * No feature package of a module's production code ({@code gateway.filter}, {@code
 * worker.admission}, with the packages below each) depends, through any path, on one that depends
 * back on it. The root package, where each app wires its features together, is not a slice.
 */
class PackageCycleTests {

  @Test
  void testSupportHasNoPackageCycles() {
    checkCycles(Modules.TEST_SUPPORT);
  }

  @Test
  void simulatorHasNoPackageCycles() {
    checkCycles(Modules.SIMULATOR);
  }

  @Test
  void originGuardHasNoPackageCycles() {
    checkCycles(Modules.ORIGIN_GUARD);
  }

  @Test
  void benchHasNoPackageCycles() {
    checkCycles(Modules.BENCH);
  }

  @Test
  void queueCoreHasNoPackageCycles() {
    checkCycles(Modules.QUEUE_CORE);
  }

  @Test
  void admissionWorkerHasNoPackageCycles() {
    checkCycles(Modules.ADMISSION_WORKER);
  }

  @Test
  void gatewayHasNoPackageCycles() {
    checkCycles(Modules.GATEWAY);
  }

  static void checkCycles(Modules module) {
    slices()
        .matching(module.rootPackage() + ".(*)..")
        .should()
        .beFreeOfCycles()
        // A module of one package has no feature package, so no cycle.
        .allowEmptyShould(true)
        .check(module.classes());
  }
}
