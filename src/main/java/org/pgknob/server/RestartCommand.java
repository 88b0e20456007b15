package org.pgknob.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/** Runs the user's restart command through {@code sh -c} with a time limit. */
final class RestartCommand {
  /**
   * How it went.
   *
   * @param problem null when the command exited 0, else what went wrong
   * @param outputTail the last lines it printed
   */
  record Result(String problem, String outputTail) {
    boolean ok() {
      return problem == null;
    }
  }

  private RestartCommand() {}

  static Result run(String command, Duration timeout) {
    Path output = null;
    try {
      // A file, not a pipe: a server started by the command may keep a pipe open for its lifetime.
      output = Files.createTempFile("pgknob-restart-", ".out");
      Process process =
          new ProcessBuilder("sh", "-c", command)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        return new Result("timed out after " + timeout.toSeconds() + " s", tail(output));
      }
      int exit = process.exitValue();
      return new Result(exit == 0 ? null : "exited with status " + exit, tail(output));
    } catch (IOException e) {
      return new Result("could not be run: " + e.getMessage(), "");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result("was interrupted", "");
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

  private static String tail(Path output) throws IOException {
    String[] lines = Files.readString(output).strip().split("\n");
    String text =
        String.join(" | ", Arrays.copyOfRange(lines, Math.max(0, lines.length - 5), lines.length));
    return text.length() > 600 ? "..." + text.substring(text.length() - 600) : text;
  }
}
