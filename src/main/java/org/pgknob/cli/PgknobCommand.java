package org.pgknob.cli;

import java.util.concurrent.Callable;
import org.pgknob.BuildInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The root command: global options and the list of subcommands. */
@Command(
    name = "pgknob",
    mixinStandardHelpOptions = true,
    versionProvider = PgknobCommand.Version.class,
    description = "Tunes PostgreSQL settings for a workload with Bayesian optimization, safely.",
    subcommands = {
      TuneCommand.class,
      ResumeCommand.class,
      CompareCommand.class,
      TargetCommand.class,
      SpaceCommand.class,
      ExportCommand.class,
      ReportCommand.class,
      ApplyCommand.class,
      RestoreCommand.class,
      TproccCommand.class,
      OptimizeCommand.class,
      AgentCommand.class,
    })
public final class PgknobCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--debug",
      scope = picocli.CommandLine.ScopeType.INHERIT,
      description = "Print stack traces of errors.")
  boolean debug;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return ExitCodes.USAGE;
  }

  /** Prints pgknob's version and the PostgreSQL binaries it bundles. */
  static final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {
        "pgknob " + BuildInfo.version(),
        "bundled PostgreSQL binaries " + BuildInfo.postgresBinariesVersion(),
        "Java " + System.getProperty("java.version")
      };
    }
  }
}
