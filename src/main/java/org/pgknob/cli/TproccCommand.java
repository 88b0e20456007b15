package org.pgknob.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The TPROC-C workload: build its database, run it, check it. */
@Command(
    name = "tprocc",
    mixinStandardHelpOptions = true,
    description = "HammerDB's TPROC-C (TPC-C-derived OLTP) workload: build, run, check.",
    subcommands = {
      TproccBuildCommand.class,
      TproccRunCommand.class,
      TproccCheckCommand.class,
    })
public final class TproccCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return ExitCodes.USAGE;
  }
}
