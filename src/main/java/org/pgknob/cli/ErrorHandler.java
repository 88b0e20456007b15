package org.pgknob.cli;

import java.util.Arrays;
import org.pgknob.PgknobException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.ParseResult;

/**
 * Turns an exception escaping a command into one line on standard error and an exit code; the stack
 * trace only with {@code --debug}.
 */
final class ErrorHandler implements IExecutionExceptionHandler {
  @Override
  public int handleExecutionException(Exception ex, CommandLine cmd, ParseResult parsed) {
    boolean debug = Arrays.asList(parsed.originalArgs().toArray(new String[0])).contains("--debug");
    var err = cmd.getErr();
    if (ex instanceof PgknobException pe) {
      err.println("pgknob: " + pe.oneLine());
      if (debug) {
        pe.printStackTrace(err);
      }
      err.flush();
      return ExitCodes.ERROR;
    }
    err.println(
        "pgknob: internal error: "
            + ex
            + (debug ? "" : " (run again with --debug for the stack trace, and report it)"));
    if (debug) {
      ex.printStackTrace(err);
    }
    err.flush();
    return ExitCodes.INTERNAL;
  }
}
