package org.pgknob.cli;

import java.nio.file.Path;
import java.time.Duration;
import org.pgknob.PgknobException;
import org.pgknob.target.LibpqEnvironment;
import org.pgknob.target.ManagedCluster;
import org.pgknob.target.PgknobHome;
import org.pgknob.target.PostgresBinaries;
import org.pgknob.target.RemoteServer;
import org.pgknob.target.RestoreFile;
import org.pgknob.target.Target;
import org.pgknob.target.TargetIdentity;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options that choose the server a command works on, shared as a picocli mixin ({@code @Mixin
 * TargetOptions target;}): pgknob's managed PostgreSQL 18 by default, or an existing server with
 * {@code --target}.
 */
public final class TargetOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(
      names = "--target",
      paramLabel = "URL|CONNINFO",
      description =
          "An existing server: postgresql://USER@HOST:PORT/DB, 'host=HOST port=PORT user=USER"
              + " dbname=DB' or jdbc:postgresql://HOST:PORT/DB; never with a password inside"
              + " (default: PGSERVICE/PGHOST/PGPORT/PGUSER/PGDATABASE as psql reads them, else"
              + " pgknob's managed PostgreSQL 18).")
  String url;

  @Option(
      names = "--user",
      paramLabel = "ROLE",
      description = "Role for --target (default: the URL's user, PGUSER, or your login name).")
  String user;

  @Option(
      names = "--password-file",
      paramLabel = "FILE",
      description =
          "File whose first line is the password for --target (mode 600). Without it: PGPASSWORD,"
              + " then ~/.pgpass.")
  Path passwordFile;

  @Option(
      names = "--restart-command",
      paramLabel = "CMD",
      description =
          "Shell command that restarts the --target server, run when a setting needs a restart,"
              + " e.g. 'sudo systemctl restart postgresql'.")
  String restartCommand;

  @Option(
      names = "--restart-timeout",
      paramLabel = "SECONDS",
      defaultValue = "120",
      description =
          "How long a restart may take before pgknob gives up and rolls back (default: ${DEFAULT-VALUE}).")
  long restartTimeoutSeconds;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "Port of the managed cluster (default: a free one).")
  int port;

  // Hidden: lets tests (and people with several managed clusters) point pgknob at a cluster folder
  // other than PGKNOB_HOME/cluster-18 without changing the environment.
  @Option(
      names = "--cluster-dir",
      paramLabel = "DIR",
      hidden = true,
      description = "Folder of the managed cluster (default: PGKNOB_HOME/cluster-18).")
  Path clusterDir;

  /** Opens the chosen server, starting the managed cluster if needed; its default restore file. */
  public Target open() {
    return open(null);
  }

  /**
   * Opens the chosen server, starting the managed cluster if needed.
   *
   * @param restoreFile where to record the original settings (a session's runs/ID/restore.json), or
   *     null for the server's default file under PGKNOB_HOME/restore
   */
  public Target open(Path restoreFile) {
    Target target;
    resolveFromEnvironment(true);
    if (url == null) {
      refuseRemoteOptions();
      ManagedCluster cluster =
          clusterDir == null
              ? ManagedCluster.openDefault(port)
              : ManagedCluster.open(
                  clusterDir, PostgresBinaries.ensure(PgknobHome.resolve()), port);
      cluster.start();
      target = cluster;
    } else {
      if (clusterDir != null) {
        throw new PgknobException(
            "--cluster-dir names a managed cluster, --target an existing server",
            "give one of them");
      }
      target = openRemote(url, user, restartCommand);
    }
    if (restoreFile != null) {
      target.useRestoreFile(restoreFile);
    }
    return target;
  }

  /**
   * Opens the server a restore file belongs to, without starting it (a restore may have to repair
   * it first). Options given on the command line take precedence over the file's.
   */
  public Target openFor(TargetIdentity identity) {
    if (identity.isManaged()) {
      return ManagedCluster.open(
          Path.of(identity.clusterDir()), PostgresBinaries.ensure(PgknobHome.resolve()), port);
    }
    return openRemote(
        url != null ? url : identity.jdbcUrl(),
        user != null ? user : identity.user(),
        restartCommand != null ? restartCommand : identity.restartCommand());
  }

  /** The restore file {@code pgknob apply} uses for the chosen server. */
  public Path defaultRestoreFile() {
    resolveFromEnvironment(false);
    if (url == null) {
      return RestoreFile.defaultPath(
          TargetIdentity.managed(
              clusterDir == null ? ManagedCluster.defaultClusterDir() : clusterDir));
    }
    return RestoreFile.defaultPath(
        new TargetIdentity(TargetIdentity.REMOTE, null, url, user, restartCommand, 0));
  }

  /**
   * Without --target (and --cluster-dir), takes the server the libpq environment names, as psql
   * would; {@code announce} prints which one and why, once.
   */
  private void resolveFromEnvironment(boolean announce) {
    if (url != null || clusterDir != null) {
      return;
    }
    String home = System.getProperty("user.home");
    LibpqEnvironment.choose(System.getenv(), home == null ? null : Path.of(home))
        .ifPresent(
            choice -> {
              url = choice.jdbcUrl();
              if (announce) {
                say(
                    "server: "
                        + choice.jdbcUrl()
                        + " (chosen by "
                        + choice.reason()
                        + "; unset them, or give --target, for another)");
              }
            });
  }

  private void say(String line) {
    if (mixee != null) {
      mixee.commandLine().getErr().println("pgknob: " + line);
      mixee.commandLine().getErr().flush();
    }
  }

  private Target openRemote(String targetUrl, String role, String command) {
    return RemoteServer.open(
        new RemoteServer.Options(
            targetUrl, role, passwordFile, command, Duration.ofSeconds(restartTimeoutSeconds)));
  }

  /** True when the command line names an existing server with --target. */
  boolean namesRemoteServer() {
    return url != null; // the environment does not override a compared session's own server
  }

  private void refuseRemoteOptions() {
    if (user != null || passwordFile != null || restartCommand != null) {
      throw new PgknobException(
          "--user, --password-file and --restart-command apply to an existing server only",
          "add --target URL, or leave them out for the managed cluster");
    }
  }
}
