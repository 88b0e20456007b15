package org.pgknob.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.pgknob.Json;
import org.pgknob.server.PrimaryHazards;
import org.pgknob.server.Target;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.SecondSample;
import org.pgknob.workload.WorkloadResult;
import org.pgknob.workload.tprocc.TproccSettings;
import org.pgknob.workload.tprocc.TproccWorkload;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Runs TPROC-C once and prints HammerDB's figures and the driver's. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description =
        "Run TPROC-C: reset the database from its pristine copy, ramp up, measure a fixed window,"
            + " then CHECKPOINT and report.")
public final class TproccRunCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin TargetOptions connection;

  @Mixin SingleRunOptions run;

  @Mixin AllWarehousesOption all;

  @Option(
      names = "--key-and-think",
      description = "TPC-C's keying and thinking times between transactions (off: flat out).")
  boolean keyAndThink;

  @Option(
      names = "--reset",
      paramLabel = "template|none",
      defaultValue = "template",
      description =
          "template: start from a fresh copy of the pristine database; none: keep the database"
              + " as the last run left it (default: ${DEFAULT-VALUE}).")
  TproccSettings.ResetMode reset;

  @Option(
      names = "--database",
      paramLabel = "NAME",
      defaultValue = TproccSettings.DEFAULT_DATABASE,
      description = "The TPROC-C database (default: ${DEFAULT-VALUE}).")
  String database;

  @Option(
      names = "--stop-timeout",
      paramLabel = "TIME",
      defaultValue = "30s",
      converter = DurationSeconds.class,
      description =
          "How long users may take to finish after the window (default: ${DEFAULT-VALUE}).")
  int stopTimeoutSeconds;

  @Option(names = "--json", description = "Print the result as JSON instead of text.")
  boolean json;

  @Override
  public Integer call() throws JsonProcessingException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    TproccSettings settings =
        TproccSettings.defaults(1)
            .withDatabase(database)
            .withUsers(run.users)
            .withTimes(run.rampupSeconds, run.windowSeconds)
            .withOptions(all.on(), keyAndThink, reset)
            .withStopTimeout(stopTimeoutSeconds);
    WorkloadResult result;
    try (Target target = connection.open();
        TproccWorkload workload = new TproccWorkload(settings)) {
      PrimaryHazards.refuse(target);
      if (reset == TproccSettings.ResetMode.TEMPLATE) {
        double seconds = workload.reset(target);
        err.printf(Locale.ROOT, "reset %s from its pristine copy in %.1f s%n", database, seconds);
      }
      result = workload.run(target, new LiveLine(err, System.console() != null));
    }
    if (json) {
      out.println(Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(result));
    } else {
      TproccRunReport.print(result, out);
    }
    out.flush();
    return ExitCodes.OK;
  }

  /** Live figures on standard error: one line redrawn on a terminal, else one every 10 s. */
  static final class LiveLine implements RunListener {
    private final PrintWriter err;
    private final boolean terminal;
    private String phase = "";

    LiveLine(PrintWriter err, boolean terminal) {
      this.err = err;
      this.terminal = terminal;
    }

    @Override
    public void phase(String name) {
      phase = name;
      if (!terminal) {
        err.println(name + " ...");
      }
      err.flush();
    }

    @Override
    public void second(SecondSample s) {
      String line =
          String.format(
              Locale.ROOT,
              "%4d s  %-10s %7d TPS  avg %6.2f ms",
              s.second(),
              phase,
              s.committed(),
              s.avgLatencyMs());
      if (terminal) {
        err.print("\r" + line);
      } else if (s.second() % 10 == 0) {
        err.println(line);
      }
      err.flush();
    }
  }
}
