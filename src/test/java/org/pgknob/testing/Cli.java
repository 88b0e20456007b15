package org.pgknob.testing;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.List;
import org.pgknob.cli.Main;

/**
 * pgknob's command line run in the test's JVM as a user types it: what it prints goes to the
 * writers given, its exit code is returned. The tests of every command use it, so each says only
 * its arguments and what it expects.
 */
public final class Cli {
  private Cli() {}

  /** Runs {@code pgknob args...}; {@code out} and {@code err} receive its standard streams. */
  public static int run(Writer out, Writer err, String... args) {
    PrintWriter outWriter = new PrintWriter(out, true);
    PrintWriter errWriter = new PrintWriter(err, true);
    var commandLine = Main.commandLine();
    commandLine.setOut(outWriter);
    commandLine.setErr(errWriter);
    try {
      return commandLine.execute(args);
    } finally {
      outWriter.flush();
      errWriter.flush();
    }
  }

  /** {@link #run(Writer, Writer, String...)} with the arguments as a list. */
  public static int run(Writer out, Writer err, List<String> args) {
    return run(out, err, args.toArray(String[]::new));
  }
}
