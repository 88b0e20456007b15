package org.pgknob.cli;

import picocli.CommandLine;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;

/**
 * A command line picocli cannot parse (unknown option, missing or malformed value): one line naming
 * the problem and where the help is, exit code 2. picocli's default prints the whole usage text
 * after the error, which buries the one line that matters.
 */
final class ParameterErrorHandler implements IParameterExceptionHandler {
  @Override
  public int handleParseException(ParameterException ex, String[] args) {
    CommandLine cmd = ex.getCommandLine();
    var err = cmd.getErr();
    String message = ex.getMessage() == null ? "bad command line" : ex.getMessage().strip();
    err.println(
        "pgknob: "
            + OneLine.of(message)
            + " (see: "
            + cmd.getCommandSpec().qualifiedName()
            + " --help)");
    err.flush();
    return ExitCodes.USAGE;
  }
}
