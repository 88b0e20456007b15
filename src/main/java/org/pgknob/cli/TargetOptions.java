package org.pgknob.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.pgknob.PgknobException;
import org.pgknob.server.LibpqEnvironment;
import org.pgknob.server.ManagedCluster;
import org.pgknob.server.ManagedVersions;
import org.pgknob.server.PgknobHome;
import org.pgknob.server.PostgresBinaries;
import org.pgknob.server.RemoteServer;
import org.pgknob.server.RestoreFile;
import org.pgknob.server.ServerLock;
import org.pgknob.server.Target;
import org.pgknob.server.TargetIdentity;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The options that choose the server a command works on, shared as a picocli mixin ({@code @Mixin
 * TargetOptions target;}): pgknob's managed PostgreSQL (18, or --pg-version) by default, or an
 * existing server with {@code --target}.
 */
public final class TargetOptions {
  /** The commands that change a server or measure it: one of them at a time per server. */
  private static final Set<String> LOCKING =
      Set.of(
          "pgknob tune",
          "pgknob apply",
          "pgknob restore",
          "pgknob compare",
          "pgknob resume",
          "pgknob tprocc run");

  /** A day: longer than any restart, short enough that the wait's arithmetic cannot overflow. */
  static final long MAX_RESTART_TIMEOUT_SECONDS = 86_400;

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
          "File whose first line is the password for --target (mode 600); without it, pgknob"
              + " reads PGPASSWORD, then the file ~/.pgpass.")
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
      names = "--agent-command",
      paramLabel = "CMD",
      description =
          "Shell command running 'pgknob agent --data-dir DIR' on the --target server's host, e.g."
              + " 'ssh db pgknob agent --data-dir /var/lib/postgresql/15/main': the memory guardrail"
              + " then watches the server's real memory there.")
  String agentCommand;

  @Option(
      names = "--require-agent",
      description = "Stop when the agent fails instead of guarding on the prediction alone.")
  boolean requireAgent;

  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "Port of the managed cluster (default: a free one).")
  int port;

  @Option(
      names = "--pg-version",
      paramLabel = "MAJOR",
      description =
          "PostgreSQL major of the managed cluster: 16, 17 or 18 (default: 18), kept in"
              + " PGKNOB_HOME/cluster-MAJOR.")
  Integer pgVersion;

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
    checkNumbers();
    Target target;
    resolveFromEnvironment(true);
    if (url == null) {
      refuseRemoteOptions();
    }
    ServerLock lock = lock(chosenIdentity());
    if (url == null) {
      ManagedCluster cluster = openManaged();
      cluster.start();
      target = cluster;
    } else {
      if (clusterDir != null) {
        throw new PgknobException(
            "--cluster-dir names a managed cluster, --target an existing server",
            "give one of them");
      }
      if (pgVersion != null) {
        throw new PgknobException(
            "--pg-version chooses the managed cluster's major; --target's server has its own",
            "leave out --pg-version");
      }
      RemoteServer remote = openRemote(url, user, restartCommand);
      tellAboutTheGuardrail(remote);
      target = remote;
    }
    if (lock != null) {
      lock.alsoOnServer(target);
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
    checkNumbers();
    Target target;
    if (identity.isManaged()) {
      ServerLock lock = lock(identity);
      target = ManagedCluster.openExisting(Path.of(identity.clusterDir()), port);
      if (lock != null) {
        lock.alsoOnServer(target);
      }
      return target;
    }
    String targetUrl = url != null ? url : identity.jdbcUrl();
    String role = user != null ? user : identity.user();
    ServerLock lock =
        lock(new TargetIdentity(TargetIdentity.REMOTE, null, targetUrl, role, null, 0));
    target =
        openRemote(
            targetUrl, role, restartCommand != null ? restartCommand : identity.restartCommand());
    if (lock != null) {
      lock.alsoOnServer(target);
    }
    return target;
  }

  /** The server the options name, before it is opened. */
  private TargetIdentity chosenIdentity() {
    if (url == null) {
      return TargetIdentity.managed(
          clusterDir == null ? ManagedCluster.defaultClusterDir(major()) : clusterDir);
    }
    return new TargetIdentity(TargetIdentity.REMOTE, null, url, user, restartCommand, 0);
  }

  /**
   * Takes the server's lock for the running command when it is one that changes or measures a
   * server (else null); {@link ServerLock#releaseAll} releases it when the command ends.
   */
  private ServerLock lock(TargetIdentity identity) {
    if (mixee == null || !LOCKING.contains(mixee.qualifiedName())) {
      return null;
    }
    PrintWriter err = mixee.commandLine().getErr();
    return ServerLock.acquire(identity, mixee.qualifiedName().substring("pgknob ".length()), err);
  }

  /** The restore file {@code pgknob apply} uses for the chosen server. */
  public Path defaultRestoreFile() {
    resolveFromEnvironment(false);
    if (url == null) {
      return RestoreFile.defaultPath(
          TargetIdentity.managed(
              clusterDir == null ? ManagedCluster.defaultClusterDir(major()) : clusterDir));
    }
    return RestoreFile.defaultPath(
        new TargetIdentity(TargetIdentity.REMOTE, null, url, user, restartCommand, 0));
  }

  /**
   * The managed cluster: the default one of the chosen major, or the --cluster-dir folder with the
   * binaries of the major it holds (or the chosen one, for a new folder).
   */
  ManagedCluster openManaged() {
    if (clusterDir == null) {
      return ManagedCluster.openDefault(port, major());
    }
    if (pgVersion == null) {
      return ManagedCluster.openExisting(clusterDir, port);
    }
    return ManagedCluster.open(
        clusterDir, PostgresBinaries.ensure(PgknobHome.resolve(), pgVersion), port);
  }

  private int major() {
    if (pgVersion == null) {
      return ManagedVersions.DEFAULT_MAJOR;
    }
    ManagedVersions.artifactVersion(pgVersion); // refuses a major the managed cluster cannot run
    return pgVersion;
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

  private RemoteServer openRemote(String targetUrl, String role, String command) {
    return RemoteServer.open(
        new RemoteServer.Options(
            targetUrl,
            role,
            passwordFile,
            command,
            Duration.ofSeconds(restartTimeoutSeconds),
            agentCommand,
            requireAgent));
  }

  /**
   * Says, for the commands that run trials, when the agent fails and what guards memory from then
   * on. A session without an agent says what guards memory itself, once its checks have passed
   * ({@code Target.memoryGuardNotice}), so a refused session prints only its one error line.
   */
  private void tellAboutTheGuardrail(RemoteServer remote) {
    String command = mixee == null ? "" : mixee.name();
    if (!List.of("tune", "resume", "compare").contains(command)) {
      return;
    }
    PrintWriter err = mixee.commandLine().getErr();
    if (remote.agent().isPresent()) {
      remote
          .agent()
          .get()
          .onFailure(
              reason -> {
                err.println(
                    "pgknob: the agent command '"
                        + agentCommand
                        + "' "
                        + reason
                        + (requireAgent
                            ? "; --require-agent: the session stops before the next trial"
                            : "; the memory guardrail relies on the safety rules' prediction alone"
                                + " from now on"));
                err.flush();
              });
    }
  }

  /** True when the command line names an existing server with --target. */
  boolean namesRemoteServer() {
    return url != null; // the environment does not override a compared session's own server
  }

  /** Numbers picocli accepts as numbers but no server or wait can use; before anything opens. */
  void checkNumbers() {
    if (restartTimeoutSeconds <= 0 || restartTimeoutSeconds > MAX_RESTART_TIMEOUT_SECONDS) {
      throw new PgknobException(
          "--restart-timeout must be between 1 and "
              + MAX_RESTART_TIMEOUT_SECONDS
              + " seconds, but got "
              + restartTimeoutSeconds,
          "give the seconds a restart may take, e.g. --restart-timeout 120");
    }
    if (port < 0 || port > 65535) {
      throw new PgknobException(
          "--port must be a TCP port between 1 and 65535, but got " + port,
          "give a free port, or leave --port out to let pgknob pick one");
    }
  }

  private void refuseRemoteOptions() {
    if (user != null
        || passwordFile != null
        || restartCommand != null
        || agentCommand != null
        || requireAgent) {
      throw new PgknobException(
          "--user, --password-file, --restart-command, --agent-command and --require-agent apply"
              + " to an existing server only",
          "add --target URL, or leave them out for the managed cluster");
    }
  }
}
