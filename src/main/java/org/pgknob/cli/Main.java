package org.pgknob.cli;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.pgknob.server.ServerLock;
import picocli.CommandLine;

/** Entry point of the pgknob command. */
public final class Main {
  // The JDBC driver logs some problems itself (java.util.logging, to stderr) before it throws
  // them, e.g. a port above 65535: pgknob reports each error once, in one line. Held in a field
  // because java.util.logging keeps loggers only weakly, and with them their level.
  private static final Logger DRIVER_LOG = Logger.getLogger("org.postgresql");

  static {
    DRIVER_LOG.setLevel(Level.OFF);
  }

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
    // A command's server lock lasts exactly as long as the command (see ServerLock.releaseAll).
    cl.setExecutionStrategy(
        parseResult -> {
          try {
            return new CommandLine.RunLast().execute(parseResult);
          } finally {
            ServerLock.releaseAll();
          }
        });
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    return cl;
  }
}
