package org.pgknob.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.pgknob.PgknobException;
import org.pgknob.report.BestConfig;
import org.pgknob.report.ConfExporter;
import org.pgknob.runs.ResultKey;
import org.pgknob.session.SessionExport;
import org.pgknob.session.SessionFolder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Writes one of a session's recommended configurations again, in the form asked for. */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description =
        "Write the best configuration a session found for a track and objective: a"
            + " postgresql.conf fragment, an ALTER SYSTEM script or JSON.")
public final class ExportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "RUN", description = "The session folder, runs/<id>.")
  Path run;

  @Option(
      names = "--track",
      paramLabel = "reload|restart|pgtune",
      defaultValue = "restart",
      description =
          "reload, restart, or pgtune for the PGTune-style row (default: ${DEFAULT-VALUE}).")
  String track;

  @Option(
      names = "--objective",
      paramLabel = "tps|latency",
      defaultValue = "tps",
      description = "tps or latency (default: ${DEFAULT-VALUE}).")
  String objective;

  @Option(
      names = "--format",
      paramLabel = "conf|alter-system|json",
      defaultValue = "conf",
      description = "conf, alter-system or json (default: ${DEFAULT-VALUE}).")
  String format;

  @Option(
      names = "--out",
      paramLabel = "FILE",
      description = "Write to this file instead of standard output ('-': standard output).")
  Path out;

  @Override
  public Integer call() throws IOException {
    ConfExporter.Format f = ConfExporter.Format.parse(format);
    if (out != null && out.toString().equals("-")) {
      out = null; // as for most tools: it wrote a file named "-" in the current folder
    }
    requireFolderOf(out);
    String rowName = rowName(track, objective);
    BestConfig best = SessionExport.best(SessionFolder.open(run), rowName);
    String text = ConfExporter.write(best, f);
    if (out == null) {
      PrintWriter w = spec.commandLine().getOut();
      w.print(text);
      w.flush();
    } else {
      Files.writeString(out, text, StandardCharsets.UTF_8);
      spec.commandLine().getErr().println("wrote " + out);
      spec.commandLine().getErr().flush();
    }
    return ExitCodes.OK;
  }

  /** Where the file would go is checked before the session is read: a typo costs no work. */
  private static void requireFolderOf(Path file) {
    if (file == null) {
      return;
    }
    Path folder = file.toAbsolutePath().getParent();
    if (folder != null && !Files.isDirectory(folder)) {
      throw new PgknobException(
          folder + ": no such file or folder, so " + file + " cannot be written",
          "create the folder first, or give --out a path in an existing one");
    }
  }

  static String rowName(String track, String objective) {
    String t = track.toLowerCase(Locale.ROOT);
    String o = objective.toLowerCase(Locale.ROOT);
    if (t.equals("pgtune")) {
      return "pgtune";
    }
    return new ResultKey(
            TrackAndGoal.track(t, "use --track reload, restart or pgtune"),
            TrackAndGoal.goal(o, "use --objective tps or latency"))
        .name();
  }
}
