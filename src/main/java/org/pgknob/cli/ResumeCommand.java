package org.pgknob.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import org.pgknob.PgknobException;
import org.pgknob.server.ManagedCluster;
import org.pgknob.server.RestoreFile;
import org.pgknob.server.Target;
import org.pgknob.session.SessionFolder;
import org.pgknob.session.SessionRunner;
import org.pgknob.session.TuningSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Continues a session that was stopped (Ctrl-C, kill -9, a crash) from its last finished trial. */
@Command(
    name = "resume",
    mixinStandardHelpOptions = true,
    description = "Continue a stopped session from its last finished trial, with the same plan.")
public final class ResumeCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin TargetOptions targetOptions;

  @Mixin ServerWaitOption serverWait;
  @Mixin QuietWaitOption quietWait;

  @Parameters(
      paramLabel = "RUN_DIR",
      description = "The session's folder, e.g. runs/2026-11-29T22-10-00.")
  Path runDir;

  @Override
  public Integer call() {
    StartOptions.fillInFor(
        runDir, spec, "resume: as the session started", targetOptions, serverWait, quietWait);
    java.time.Duration waitForServer = serverWait.longest();
    java.time.Duration waitForQuiet = quietWait.longest();
    SessionFolder folder = SessionFolder.openForResume(runDir);
    Path restore = folder.file(SessionFolder.RESTORE_FILE);
    var out = spec.commandLine().getOut();
    var err = spec.commandLine().getErr();
    try (Target target = open(restore)) {
      SessionRunner.run(
          target,
          out,
          err,
          progress ->
              TuningSession.resume(
                      folder, target, progress, ConsoleProgress.forConsole(out), Clock.systemUTC())
                  .waitingForServer(waitForServer)
                  .repeatingDisturbed(waitForQuiet));
      return ExitCodes.OK;
    }
  }

  /** The session's own server: from the restore file unless options name it. */
  private Target open(Path restore) {
    if (!Files.exists(restore)) {
      return targetOptions.open(restore);
    }
    Target target = targetOptions.openFor(RestoreFile.read(restore).identity());
    if (target instanceof ManagedCluster cluster) {
      cluster.start();
    }
    target.useRestoreFile(restore);
    if (target.facts() == null) {
      throw new PgknobException("cannot reach the session's server", "start it and try again");
    }
    return target;
  }
}
