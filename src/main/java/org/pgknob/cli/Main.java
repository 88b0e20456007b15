package org.pgknob.cli;

import picocli.CommandLine;

/** Entry point of the pgknob command. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs pgknob with {@code args} and returns its exit code (tests call this). */
  public static int run(String... args) {
    return commandLine().execute(args);
  }

  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new PgknobCommand());
    cl.setExecutionExceptionHandler(new ErrorHandler());
    cl.setParameterExceptionHandler(new ParameterErrorHandler());
    cl.registerConverter(java.nio.file.Path.class, new PathArgument());
    // A command's server lock lasts exactly as long as the command (see CommandLocks).
    cl.setExecutionStrategy(
        parseResult -> {
          try {
            return new CommandLine.RunLast().execute(parseResult);
          } finally {
            CommandLocks.releaseAll();
          }
        });
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    return cl;
  }
}
