package org.pgknob.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import org.pgknob.PgknobException;
import org.pgknob.ShellWords;

/**
 * A PostgreSQL cluster that pgknob owns (16, 17 or 18; {@link ManagedVersions}): initdb, start,
 * stop, restart and reload, with the binaries from the zonky Maven artifacts.
 *
 * <p>Layout of the cluster folder: {@code data/} (the data directory, owned by the server user),
 * {@code log/server.log} (what the server writes while starting and running) and {@code password}
 * (the superuser's password, readable by pgknob's user only).
 *
 * <p>The server runs with exactly the settings in its configuration files: listen address, port and
 * socket folder live in {@code data/pgknob-cluster.conf}, included from postgresql.conf, and
 * nothing is passed on the command line, so ALTER SYSTEM governs every tuned setting.
 */
public final class ManagedCluster implements Target {
  public static final String SUPERUSER = "postgres";
  private static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(90);

  private final Path clusterDir;
  private final PostgresBinaries binaries;
  private int port;
  private final Duration startTimeout = DEFAULT_START_TIMEOUT;
  private boolean runningAtOpen;
  private SettingsController settingsController;
  private volatile boolean probesDisk; // --disk-probe: off by default, see newSampler

  private ManagedCluster(Path clusterDir, PostgresBinaries binaries, int port) {
    this.clusterDir = clusterDir;
    this.binaries = binaries;
    this.port = port;
  }

  /**
   * Opens the cluster in {@code clusterDir}, running initdb if its data folder is missing or empty.
   * Does not start it.
   *
   * @param port the port to listen on, or 0 for a free one chosen at each start
   */
  public static ManagedCluster open(Path clusterDir, PostgresBinaries binaries, int port) {
    ManagedCluster cluster = new ManagedCluster(clusterDir.toAbsolutePath(), binaries, port);
    cluster.files().createIfNeeded(port);
    cluster.runningAtOpen = cluster.isRunning();
    if (cluster.runningAtOpen) {
      cluster.adoptRunningPort();
    }
    return cluster;
  }

  /**
   * Makes every window from now on ({@code on}) probe the disk beside the data directory ({@link
   * DiskProbe}): the cluster folder holds the data directory, so it is on the same filesystem, and
   * pgknob owns it. Off by default: the probe writes a tenth of each second inside the window,
   * beside the server's own WAL fsyncs, so it perturbs what it measures; its rate is a diagnostic
   * only.
   */
  public void probeDiskInWindows(boolean on) {
    probesDisk = on;
  }

  /** The process sampler of the running server; it probes the disk when asked to. */
  @Override
  public Optional<ProcessSampler> newSampler() {
    Optional<ProcessSampler> sampler = Target.super.newSampler();
    if (probesDisk) {
      sampler.ifPresent(s -> s.probeDisk(new DiskProbe(clusterDir)));
    }
    return sampler;
  }

  /** The default cluster of the default major under pgknob's home folder. */
  public static ManagedCluster openDefault(int port) {
    return openDefault(port, ManagedVersions.DEFAULT_MAJOR);
  }

  /** The default cluster of PostgreSQL {@code major}: PGKNOB_HOME/cluster-{@code major}. */
  public static ManagedCluster openDefault(int port, int major) {
    Path home = PgknobHome.resolve();
    return open(defaultClusterDir(major), PostgresBinaries.ensure(home, major), port);
  }

  /**
   * The cluster in {@code clusterDir} with the binaries of the major its data folder holds (the
   * default major for a new folder): a restore must not depend on which --pg-version is given.
   */
  public static ManagedCluster openExisting(Path clusterDir, int port) {
    int major = ManagedVersions.DEFAULT_MAJOR;
    try {
      Path pgVersion = clusterDir.resolve("data").resolve("PG_VERSION");
      if (Files.isRegularFile(pgVersion)) {
        major = Integer.parseInt(Files.readString(pgVersion).trim());
      }
    } catch (IOException | NumberFormatException e) {
      // open() reports a folder it cannot use
    }
    return open(clusterDir, PostgresBinaries.ensure(PgknobHome.resolve(), major), port);
  }

  /** The folder of the default cluster: PGKNOB_HOME/cluster-18. */
  public static Path defaultClusterDir() {
    return defaultClusterDir(ManagedVersions.DEFAULT_MAJOR);
  }

  /** The folder of the default cluster of {@code major}: PGKNOB_HOME/cluster-17. */
  public static Path defaultClusterDir(int major) {
    return PgknobHome.resolve().resolve(ManagedVersions.clusterDirName(major));
  }

  public Path clusterDir() {
    return clusterDir;
  }

  public Path dataDir() {
    return clusterDir.resolve("data");
  }

  public Path logFile() {
    return clusterDir.resolve("log").resolve("server.log");
  }

  public PostgresBinaries binaries() {
    return binaries;
  }

  public int port() {
    return port;
  }

  @Override
  public TargetIdentity identity() {
    return TargetIdentity.managed(clusterDir);
  }

  @Override
  public String describe() {
    return "managed PostgreSQL "
        + binaries.major()
        + " cluster at 127.0.0.1:"
        + port
        + " ("
        + dataDir()
        + ")";
  }

  @Override
  public String jdbcUrl(String database) {
    return "jdbc:postgresql://127.0.0.1:" + port + "/" + database;
  }

  /** User and password for a JDBC connection; never log these properties. */
  @Override
  public Properties credentials() {
    Properties props = new Properties();
    props.setProperty("user", SUPERUSER);
    props.setProperty("password", password());
    return props;
  }

  @Override
  public Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(jdbcUrl(database), credentials());
  }

  /** A cluster already running (started by an earlier pgknob) listens where postmaster.pid says. */
  private void adoptRunningPort() {
    try {
      List<String> lines = Files.readAllLines(dataDir().resolve("postmaster.pid"));
      int runningPort = Integer.parseInt(lines.get(3).trim());
      if (port != 0 && port != runningPort) {
        throw new PgknobException(
            "the managed cluster in " + clusterDir + " already runs on port " + runningPort,
            "leave out --port " + port + ", or stop the cluster first");
      }
      port = runningPort;
    } catch (IOException | RuntimeException e) {
      if (e instanceof PgknobException pe) {
        throw pe;
      }
      // postmaster.pid vanished or is being written: start() will find out
    }
  }

  public boolean isRunning() {
    return ServerCommand.run(
                List.of(pgCtl(), "status", "-D", dataDir().toString()), Duration.ofSeconds(30))
            .exitCode()
        == 0;
  }

  /** The postmaster's pid from postmaster.pid, if the server is running. */
  public OptionalLong postmasterPid() {
    Path pidFile = dataDir().resolve("postmaster.pid");
    try {
      List<String> lines = Files.readAllLines(pidFile);
      return lines.isEmpty() ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(lines.get(0)));
    } catch (IOException | NumberFormatException e) {
      return OptionalLong.empty();
    }
  }

  /**
   * Starts the server and waits until it accepts connections.
   *
   * @throws ServerStartException with the server's own FATAL message when it does not come up
   *     within the start timeout (the server is left stopped)
   */
  public void start() {
    if (isRunning()) {
      return;
    }
    int listenPort = port == 0 ? freePort() : port;
    if (!portIsFree(listenPort)) {
      throw new PgknobException(
          "port " + listenPort + " on 127.0.0.1 is already in use",
          "stop what listens there or choose another with --port");
    }
    files().writeListenConf(listenPort);
    long logOffset = new ServerLog(logFile()).size();
    ServerCommand.Result result =
        ServerCommand.run(
            List.of(
                pgCtl(),
                "start",
                "-w",
                "-t",
                Long.toString(startTimeout.toSeconds()),
                "-D",
                dataDir().toString(),
                "-l",
                logFile().toString()),
            startTimeout.plusSeconds(15));
    this.port = listenPort;
    if (result.exitCode() != 0 || !isRunning()) {
      String message = new ServerLog(logFile()).messagesSince(logOffset);
      // A server that is still starting after the timeout must not be left half up.
      stopQuietly();
      throw new ServerStartException(
          "PostgreSQL did not start",
          message.isEmpty() ? result.output().trim() : message,
          "see " + logFile());
    }
  }

  /** Stops the server (fast shutdown: open transactions are rolled back). */
  public void stop() {
    if (!isRunning()) {
      return;
    }
    ServerCommand.Result result =
        ServerCommand.run(
            List.of(pgCtl(), "stop", "-m", "fast", "-w", "-t", "120", "-D", dataDir().toString()),
            Duration.ofSeconds(150));
    if (result.exitCode() != 0 && isRunning()) {
      ServerCommand.run(
          List.of(pgCtl(), "stop", "-m", "immediate", "-w", "-D", dataDir().toString()),
          Duration.ofSeconds(60));
    }
  }

  @Override
  public void restart() {
    stop();
    start();
  }

  /**
   * A shell command that restarts this cluster the way an operator's restart command would (as the
   * server's user when pgknob runs as root): for testing {@link RemoteServer} against it.
   */
  public String restartShellCommand() {
    List<String> command =
        ServerUser.wrap(
            List.of(
                pgCtl(),
                "restart",
                "-m",
                "fast",
                "-w",
                "-t",
                Long.toString(startTimeout.toSeconds()),
                "-D",
                dataDir().toString(),
                "-l",
                logFile().toString()));
    StringBuilder shell = new StringBuilder();
    for (String arg : command) {
      shell.append(shell.length() == 0 ? "" : " ").append(ShellWords.quoted(arg));
    }
    return shell.toString();
  }

  /** The file with the superuser's password, readable by pgknob's user only. */
  public Path passwordFile() {
    return clusterDir.resolve(ClusterFiles.PASSWORD_FILE);
  }

  @Override
  public ServerFacts facts() {
    // The control session: a resume reads the facts before it restores, so a timeout a killed
    // trial left on the server must not stop it.
    try (Connection conn = ControlSession.open(jdbcUrl("postgres"), credentials())) {
      return FactsReader.read(conn, true, postmasterPid());
    } catch (SQLException e) {
      throw new PgknobException(
          "cannot read the facts of " + describe() + ": " + ServerMessages.of(e),
          "check that the cluster is running",
          e);
    }
  }

  @Override
  public List<ServerSetting> settings() {
    return settingsController().settings();
  }

  @Override
  public ApplyReport configure(Map<String, String> settings) {
    return settingsController().configure(settings);
  }

  @Override
  public Map<String, String> appliedSettings() {
    return settingsController().applied();
  }

  @Override
  public ApplyReport restoreOriginals() {
    return settingsController().restoreOriginals(false);
  }

  @Override
  public ApplyReport restoreOriginalsForGood() {
    return settingsController().restoreOriginals(true);
  }

  @Override
  public Path restoreFile() {
    return settingsController().restoreFile();
  }

  @Override
  public void useRestoreFile(Path file) {
    settingsController().useRestoreFile(file);
  }

  /** True when the cluster was running when this handle opened it. */
  public boolean wasRunningAtOpen() {
    return runningAtOpen;
  }

  /**
   * Stops the cluster if it was not running when it was opened, unless its restore file says it ran
   * before pgknob's first change: a restore or resume after a kill -9 between a stop and a start
   * finds it stopped, and must leave it running as the user had it.
   */
  @Override
  public void close() {
    synchronized (this) {
      if (settingsController != null) {
        settingsController.close(); // before a stop, so no control connection outlives it
      }
    }
    if (!runningAtOpen && !settingsController().leaveRunning()) {
      stop();
    }
  }

  private synchronized SettingsController settingsController() {
    if (settingsController == null) {
      ManagedServerControl control = new ManagedServerControl(this);
      settingsController =
          new SettingsController(control, RestoreFile.defaultPath(control.identity()));
    }
    return settingsController;
  }

  /** Sends SIGHUP through pg_ctl: the server re-reads its configuration files. */
  public void reload() {
    ServerCommand.Result result =
        ServerCommand.run(
            List.of(pgCtl(), "reload", "-D", dataDir().toString()), Duration.ofSeconds(30));
    if (result.exitCode() != 0) {
      throw new PgknobException(
          "pg_ctl reload failed: " + result.output().trim(), "check that the server is running");
    }
  }

  private void stopQuietly() {
    try {
      stop();
    } catch (RuntimeException e) {
      // best effort: the caller reports the start failure
    }
  }

  private ClusterFiles files() {
    return new ClusterFiles(clusterDir, dataDir(), logFile(), binaries);
  }

  private String password() {
    try {
      return Files.readString(clusterDir.resolve(ClusterFiles.PASSWORD_FILE)).trim();
    } catch (IOException e) {
      throw new PgknobException(
          "cannot read the managed cluster's password file in " + clusterDir,
          "run pgknob as the user that created the cluster",
          e);
    }
  }

  private String pgCtl() {
    return binaries.bin("pg_ctl").toString();
  }

  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static boolean portIsFree(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      return socket.isBound();
    } catch (IOException e) {
      return false;
    }
  }
}
