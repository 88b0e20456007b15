package org.pgknob.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.pgknob.PgknobException;

/** Runs a PostgreSQL program (initdb, pg_ctl) as the server's user, with a timeout. */
final class ServerCommand {
  private ServerCommand() {}

  /** What a child process printed and how it exited. */
  record Result(int exitCode, String output) {
    /** The output's last {@code n} lines on one line, for a message. */
    String lastLines(int n) {
      String[] lines = output.strip().split("\n");
      return String.join(
          " ", Arrays.copyOfRange(lines, Math.max(0, lines.length - n), lines.length));
    }
  }

  static Result run(List<String> command, Duration timeout) {
    Path output = null;
    try {
      // Output goes to a file, not a pipe: pg_ctl's children may keep a pipe open long after
      // pg_ctl exits, and a file never blocks the wait below.
      output = Files.createTempFile("pgknob-cmd-", ".out");
      Process process =
          new ProcessBuilder(ServerUser.wrap(command))
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        return new Result(-1, "timed out after " + timeout.toSeconds() + " s");
      }
      return new Result(process.exitValue(), Files.readString(output));
    } catch (IOException e) {
      throw new PgknobException(
          "cannot run " + command.get(0) + ": " + e.getMessage(),
          "check that the PostgreSQL binaries were unpacked (delete PGKNOB_HOME to redo it)",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PgknobException("interrupted while running " + command.get(0), "", e);
    } finally {
      if (output != null) {
        try {
          Files.deleteIfExists(output);
        } catch (IOException e) {
          // a leftover temp file is harmless
        }
      }
    }
  }
}
