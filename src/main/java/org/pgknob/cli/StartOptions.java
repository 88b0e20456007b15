package org.pgknob.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.pgknob.ShellWords;
import org.pgknob.runs.JsonFile;
import org.pgknob.session.SessionFolder;
import org.pgknob.session.TuningSession;
import picocli.CommandLine.Model.CommandSpec;

/**
 * The options of a session's start that its other files do not keep and a resume needs: how to log
 * in, the agent and whether it is required, and how long to wait for the server and for a quiet
 * host. Kept in the session's folder as {@value #FILE}; {@code pgknob resume} takes each one it is
 * not given.
 *
 * <p>Why: resume took the server, role and restart command from the restore file, but nothing else.
 * {@code ./pgknob resume RUN}, as a failed session's next step prints it, then failed on a password
 * given by --password-file, and, worse, ran an unattended session started with --agent-command
 * --require-agent on the safety rules' memory prediction alone, with the default waits in place of
 * the user's.
 *
 * @param passwordFile the absolute path of --password-file (never the password), or null
 * @param agentCommand --agent-command, or null
 * @param requireAgent --require-agent
 * @param serverWaitSeconds --server-wait
 * @param quietWaitSeconds --quiet-wait
 */
record StartOptions(
    String passwordFile,
    String agentCommand,
    boolean requireAgent,
    int serverWaitSeconds,
    int quietWaitSeconds) {
  static final String FILE = "start-options.json";

  static StartOptions of(TargetOptions target, ServerWaitOption serverWait, QuietWaitOption quiet) {
    return new StartOptions(
        target.passwordFile == null ? null : target.passwordFile.toAbsolutePath().toString(),
        target.agentCommand,
        target.requireAgent,
        serverWait.seconds,
        quiet.seconds);
  }

  /**
   * Records these options beside the new session's session.json, and gives the session their waits.
   * Called once the setup is done: a folder holding only this file would not be removed as empty
   * when the setup fails or is stopped.
   */
  TuningSession begin(TuningSession session, SessionFolder folder) {
    write(folder.dir());
    return session
        .waitingForServer(Duration.ofSeconds(serverWaitSeconds))
        .repeatingDisturbed(Duration.ofSeconds(quietWaitSeconds));
  }

  void write(Path sessionDir) {
    new JsonFile<>(sessionDir, FILE, StartOptions.class).write(this);
  }

  /** What the session's start recorded; null for a session from before this file. */
  static StartOptions read(Path sessionDir) {
    JsonFile<StartOptions> file = new JsonFile<>(sessionDir, FILE, StartOptions.class);
    if (!file.exists()) {
      return null;
    }
    try {
      return file.read();
    } catch (IOException e) {
      return null; // the resume then runs with the options it is given, as before this file
    }
  }

  /**
   * Gives a command on the session at {@code sessionDir} (a resume, or a comparison on its server)
   * each option that session started with and the command line does not give, and says on the error
   * stream what it took, after {@code label}: the server is then reached as the session reached it.
   */
  static void fillInFor(
      Path sessionDir,
      CommandSpec spec,
      String label,
      TargetOptions target,
      ServerWaitOption serverWait,
      QuietWaitOption quiet) {
    StartOptions started = read(sessionDir);
    if (started == null) {
      return;
    }
    String taken =
        started.fillIn(
            target,
            serverWait,
            quiet,
            option -> spec.commandLine().getParseResult().hasMatchedOption(option));
    if (!taken.isEmpty()) {
      spec.commandLine().getErr().println(label + ": " + taken);
    }
  }

  /**
   * Gives a restore of the session at {@code sessionDir} the --password-file that session started
   * with when the command line gives none, and says so after {@code label}: the login is all a
   * restore needs. Why: a session killed with kill -9 names `pgknob restore RUN/restore.json` as
   * the next step, which then failed for want of the password the session had read from a file.
   */
  static void fillInLoginFor(
      Path sessionDir, CommandSpec spec, String label, TargetOptions target) {
    StartOptions started = read(sessionDir);
    if (started == null || started.passwordFile == null || target.passwordFile != null) {
      return;
    }
    target.passwordFile = Path.of(started.passwordFile);
    spec.commandLine()
        .getErr()
        .println(label + ": --password-file " + ShellWords.word(started.passwordFile));
  }

  /**
   * Gives {@code target}, {@code serverWait} and {@code quiet} each recorded option the command was
   * not given ({@code given} tells which were), and returns them as the command line spells them
   * (empty when none was taken).
   */
  String fillIn(
      TargetOptions target,
      ServerWaitOption serverWait,
      QuietWaitOption quiet,
      java.util.function.Predicate<String> given) {
    List<String> taken = new ArrayList<>();
    if (passwordFile != null && target.passwordFile == null) {
      target.passwordFile = Path.of(passwordFile);
      taken.add("--password-file " + ShellWords.word(passwordFile));
    }
    if (agentCommand != null && target.agentCommand == null) {
      target.agentCommand = agentCommand;
      taken.add("--agent-command " + ShellWords.quoted(agentCommand));
    }
    if (requireAgent && !target.requireAgent) {
      target.requireAgent = true;
      taken.add("--require-agent");
    }
    if (!given.test("--server-wait") && serverWait.seconds != serverWaitSeconds) {
      serverWait.seconds = serverWaitSeconds;
      taken.add("--server-wait " + serverWaitSeconds + "s");
    }
    if (!given.test("--quiet-wait") && quiet.seconds != quietWaitSeconds) {
      quiet.seconds = quietWaitSeconds;
      taken.add("--quiet-wait " + quietWaitSeconds + "s");
    }
    return String.join(" ", taken);
  }
}
