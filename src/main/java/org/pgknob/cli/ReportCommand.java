package org.pgknob.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.pgknob.report.ReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Writes (or rewrites) a session's HTML report and chart PNGs from its folder. */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description = {
      "Write runs/<id>/report.html and runs/<id>/charts/*.png from a session folder.",
      "Works at any time, also while the session runs or after it was stopped."
    })
public final class ReportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "RUN_DIR", description = "The session folder, runs/<id>.")
  Path runDir;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Path report = ReportWriter.write(runDir);
    out.println("report: " + report);
    out.println("charts: " + report.resolveSibling("charts"));
    out.flush();
    return ExitCodes.OK;
  }
}
