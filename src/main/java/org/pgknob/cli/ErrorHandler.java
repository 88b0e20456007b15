package org.pgknob.cli;

import java.util.Arrays;
import org.pgknob.PgknobException;
import org.pgknob.session.StoppedBySignalException;
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
    if (ex instanceof StoppedBySignalException) {
      return ExitCodes.INTERRUPTED; // the shutdown hook said what happened and what was restored
    }
    PgknobException userError =
        ex instanceof PgknobException pe ? pe : FileErrors.explain(ex).orElse(null);
    if (userError != null) {
      err.println("pgknob: " + OneLine.of(userError.oneLine()));
      if (debug) {
        ex.printStackTrace(err);
      }
      err.flush();
      return ExitCodes.ERROR;
    }
    err.println(
        "pgknob: internal error: "
            + OneLine.of(ex.toString())
            + (debug ? "" : " (run again with --debug for the stack trace, and report it)"));
    if (debug) {
      ex.printStackTrace(err);
    }
    err.flush();
    return ExitCodes.INTERNAL;
  }
}
