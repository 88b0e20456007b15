package org.pgknob.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.Callable;
import org.pgknob.target.ManagedCluster;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Prints the facts of the target server. */
@Command(
    name = "target",
    mixinStandardHelpOptions = true,
    description = "Show the target server: version, host RAM and cores, data folder, settings.")
public final class TargetCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--port", description = "Port of the managed cluster (default: a free one).")
  int port;

  @Override
  public Integer call() throws SQLException {
    PrintWriter out = spec.commandLine().getOut();
    ManagedCluster cluster = ManagedCluster.openDefault(port);
    cluster.start();
    try (Connection conn = cluster.connect("postgres");
        ResultSet rs =
            conn.createStatement()
                .executeQuery(
                    "SELECT version(), current_setting('data_directory'),"
                        + " count(*) FILTER (WHERE context IN ('sighup','superuser','user')),"
                        + " count(*) FILTER (WHERE context = 'postmaster') FROM pg_settings")) {
      rs.next();
      out.println("server:    " + rs.getString(1));
      out.println("data:      " + rs.getString(2));
      out.println("cores:     " + Runtime.getRuntime().availableProcessors());
      out.println("reload:    " + rs.getInt(3) + " settings apply on reload");
      out.println("restart:   " + rs.getInt(4) + " settings need a restart");
    }
    out.flush();
    return ExitCodes.OK;
  }
}
