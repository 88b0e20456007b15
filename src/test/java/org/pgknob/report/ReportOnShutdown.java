package org.pgknob.report;

import java.nio.file.Path;

/**
 * A JVM that writes a session's report from a shutdown hook, as a session stopped by Ctrl-C or
 * SIGTERM does on its way out; run by {@link ReportWriterTest} in a process of its own.
 */
public final class ReportOnShutdown {
  private ReportOnShutdown() {}

  public static void main(String[] args) {
    Path runDir = Path.of(args[0]);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> System.out.println(ReportWriter.writeAfterStop(runDir)), "stop"));
    System.exit(0);
  }
}
