package org.pgknob;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The package map of DESIGN.md as the code has it today: no cycles, and the layers top to bottom.
 * Where the code still bends DESIGN.md, the bend is listed below as a known exception to remove, so
 * the rules pin everything else and a new bend fails the build.
 */
class ArchitectureTest {
  private static final JavaClasses MAIN =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages("org.pgknob");

  /**
   * Top to bottom; a layer may use only the layers below it. {@code runs} owns the run folder's
   * file format (names, JSON lines) and knows no record type, so every layer may write or read
   * through it.
   */
  static final List<String> LAYERS =
      List.of(
          "cli",
          "session",
          "report",
          "trial",
          "safety",
          "workload",
          "optimize",
          "measure",
          "server",
          "space",
          "runs");

  @Test
  void topLevelPackagesHaveNoCycles() {
    slices().matching("org.pgknob.(*)..").should().beFreeOfCycles().check(MAIN);
  }

  @Test
  void subPackagesHaveNoCycles() {
    slices().matching("org.pgknob.(**)").should().beFreeOfCycles().check(MAIN);
  }

  @Test
  void eachLayerUsesOnlyTheLayersBelowIt() {
    LayeredArchitecture layers = layeredArchitecture().consideringOnlyDependenciesInLayers();
    for (String layer : LAYERS) {
      layers = layers.layer(layer).definedBy("org.pgknob." + layer + "..");
    }
    layers = layers.layer("root").definedBy("org.pgknob");
    for (int i = 0; i < LAYERS.size(); i++) {
      String[] above = LAYERS.subList(0, i).toArray(String[]::new);
      layers =
          i == 0
              ? layers.whereLayer(LAYERS.get(i)).mayNotBeAccessedByAnyLayer()
              : layers.whereLayer(LAYERS.get(i)).mayOnlyBeAccessedByLayers(above);
    }
    layers.check(MAIN);
  }

  /** DESIGN.md: optimize sees numbers only; a workload (the command one too) never uses it. */
  @Test
  void workloadsDoNotUseTheOptimizers() {
    noClasses()
        .that()
        .resideInAPackage("org.pgknob.workload..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("org.pgknob.optimize..")
        .check(MAIN);
  }

  /** A workload is a plug-in: nothing above the workload layer names one workload's package. */
  @Test
  void onlyTheCliNamesABuiltInWorkload() {
    noClasses()
        .that()
        .resideInAnyPackage("org.pgknob.session..", "org.pgknob.report..", "org.pgknob.trial..")
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage(
            "org.pgknob.workload.tprocc..",
            "org.pgknob.workload.pgbench..",
            "org.pgknob.workload.command..")
        .check(MAIN);
  }
}
