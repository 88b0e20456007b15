package org.pgknob.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.pgknob.server.PrimaryHazards;
import org.pgknob.server.Target;
import org.pgknob.workload.tprocc.TproccBuilder;
import org.pgknob.workload.tprocc.TproccSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Builds the TPROC-C database and its pristine copy. */
@Command(
    name = "build",
    mixinStandardHelpOptions = true,
    description =
        "Build the TPROC-C database (about 100 MB per warehouse) and the pristine copy resets"
            + " start from. Does nothing when a build of that size is there.")
public final class TproccBuildCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TargetOptions connection;

  @Option(
      names = "--warehouses",
      paramLabel = "N",
      required = true,
      description = "Warehouses to build (TPC-C's scale).")
  int warehouses;

  @Option(
      names = "--database",
      paramLabel = "NAME",
      defaultValue = TproccSettings.DEFAULT_DATABASE,
      description = "Name of the database (default: ${DEFAULT-VALUE}; its copy: <name>_pristine).")
  String database;

  @Option(
      names = "--rebuild",
      description = "Drop pgknob's TPROC-C databases of this name and build them again.")
  boolean rebuild;

  @Option(
      names = "--load-threads",
      paramLabel = "N",
      description = "Warehouses loaded at once (default: one per core).",
      defaultValue = "0")
  int loadThreads;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    int threads = loadThreads > 0 ? loadThreads : Runtime.getRuntime().availableProcessors();
    TproccSettings settings =
        TproccSettings.defaults(warehouses).withDatabase(database).withLoadThreads(threads);
    TproccBuilder.BuildReport report;
    try (Target target = connection.open()) {
      PrimaryHazards.refuse(target);
      report = new TproccBuilder(target, settings).build(rebuild, ConsoleProgress.forConsole(out));
    }
    if (!report.built()) {
      out.printf(
          Locale.ROOT,
          "%s is already built with %d warehouses (--rebuild builds it again)%n",
          database,
          report.warehouses());
    } else {
      out.printf(
          Locale.ROOT,
          "built %s: %d warehouses in %.1f s (loading %.1f s, %.1f s per warehouse)%n",
          database,
          report.warehouses(),
          report.totalSeconds(),
          report.loadSeconds(),
          report.loadSeconds() / report.warehouses());
    }
    out.flush();
    return ExitCodes.OK;
  }
}
