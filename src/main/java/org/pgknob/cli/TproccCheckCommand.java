package org.pgknob.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.pgknob.server.Target;
import org.pgknob.workload.tprocc.ConsistencyCheck;
import org.pgknob.workload.tprocc.TproccSettings;
import org.pgknob.workload.tprocc.TproccWorkload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Checks TPC-C's consistency conditions 1 to 4 on the TPROC-C database. */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    description = "Check TPC-C's consistency conditions 1 to 4 (exit code 1 if one fails).")
public final class TproccCheckCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TargetOptions connection;

  @Option(
      names = "--database",
      paramLabel = "NAME",
      defaultValue = TproccSettings.DEFAULT_DATABASE,
      description = "The TPROC-C database (default: ${DEFAULT-VALUE}).")
  String database;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    List<ConsistencyCheck.Condition> conditions;
    try (Target target = connection.open()) {
      conditions =
          new TproccWorkload(TproccSettings.defaults(1).withDatabase(database)).check(target);
    }
    boolean allHold = true;
    for (ConsistencyCheck.Condition c : conditions) {
      allHold &= c.holds();
      out.printf(
          Locale.ROOT,
          "condition %d  %-6s %s%s%n",
          c.number(),
          c.holds() ? "holds" : "FAILS",
          c.rule(),
          c.holds() ? "" : " (" + c.violations() + " warehouses or districts break it)");
    }
    out.flush();
    return allHold ? ExitCodes.OK : ExitCodes.ERROR;
  }
}
