package org.pgknob.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.pgknob.PgknobException;
import org.pgknob.server.ApplyReport;
import org.pgknob.server.RestoreFile;
import org.pgknob.server.SettingChange;
import org.pgknob.server.Target;
import org.pgknob.server.UnrestoredFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Puts back the original settings recorded in a restore file, e.g. after a crash or kill -9. */
@Command(
    name = "restore",
    mixinStandardHelpOptions = true,
    description =
        "Put back the settings a session or 'pgknob apply' changed, from their restore file:"
            + " RUN_DIR/restore.json, a restore file, or (without RUN_DIR) the one of 'pgknob"
            + " apply' for the chosen server.")
public final class RestoreCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin TargetOptions targetOptions;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "RUN_DIR",
      description = "A session's run folder, or a restore file.")
  Path runDir;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Path file = restoreFile();
    if (!Files.exists(file)) {
      if (runDir != null) {
        throw new PgknobException(
            "no restore file at " + file, "give a session's run folder or a restore.json file");
      }
      out.println("nothing to restore: pgknob apply has not changed this server (no " + file + ")");
      othersNotRestored(file).forEach(out::println);
      out.flush();
      return ExitCodes.OK;
    }
    RestoreFile recorded = RestoreFile.read(file);
    if (recorded.isRestored()) {
      out.println("nothing to restore: the settings in " + file + " were restored already");
      if (runDir == null) {
        othersNotRestored(file).forEach(out::println);
      }
      out.flush();
      return ExitCodes.OK;
    }
    Path folder = file.toAbsolutePath().getParent();
    if (runDir != null && folder != null) {
      StartOptions.fillInLoginFor(folder, spec, "restore: as the session started", targetOptions);
    }
    try (Target target = targetOptions.openFor(recorded.identity())) {
      target.useRestoreFile(file);
      ApplyReport report = target.restoreOriginals();
      for (SettingChange change : report.changes()) {
        out.println("  " + change.name() + ": " + change.before() + " -> " + change.after());
      }
      out.printf(
          Locale.ROOT,
          "restored %d setting(s) of %s%s in %.1f s; %s marked restored%n",
          recorded.snapshot().originals().size(),
          target.describe(),
          report.restarted() ? " (restarted)" : "",
          report.seconds(),
          file);
    }
    out.flush();
    return ExitCodes.OK;
  }

  /**
   * Lines naming the restore files in {@code file}'s folder (PGKNOB_HOME/restore) still holding
   * changed settings, of any server, sessions' included: without RUN_DIR, restore reads one
   * server's apply file, so after {@code apply --pg-version 16}, or a session killed with kill -9,
   * it said "nothing to restore" and left that server changed.
   */
  private static List<String> othersNotRestored(Path file) {
    Path folder = file.toAbsolutePath().normalize().getParent();
    if (folder == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    for (var other : UnrestoredFiles.all(folder)) {
      if (!other.getKey().equals(file.toAbsolutePath().normalize())) {
        out.add(
            "still changed: "
                + other.getValue()
                + " (put it back with: pgknob restore "
                + other.getKey()
                + ")");
      }
    }
    return out;
  }

  private Path restoreFile() {
    if (runDir == null) {
      return targetOptions.defaultRestoreFile();
    }
    return Files.isDirectory(runDir) ? runDir.resolve(RestoreFile.FILE_NAME) : runDir;
  }
}
