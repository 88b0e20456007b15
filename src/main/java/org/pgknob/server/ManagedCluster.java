package org.pgknob.server;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.pgknob.PgknobException;

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
  private static final String CLUSTER_CONF = "pgknob-cluster.conf";
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
    cluster.initIfNeeded();
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
    return run(List.of(pgCtl(), "status", "-D", dataDir().toString()), Duration.ofSeconds(30))
            .exitCode
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
    writeClusterConf(listenPort);
    long logOffset = logSize();
    ProcessResult result =
        run(
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
    if (result.exitCode != 0 || !isRunning()) {
      String message = serverMessageSince(logOffset);
      // A server that is still starting after the timeout must not be left half up.
      stopQuietly();
      throw new ServerStartException(
          "PostgreSQL did not start",
          message.isEmpty() ? result.output.trim() : message,
          "see " + logFile());
    }
  }

  /** Stops the server (fast shutdown: open transactions are rolled back). */
  public void stop() {
    if (!isRunning()) {
      return;
    }
    ProcessResult result =
        run(
            List.of(pgCtl(), "stop", "-m", "fast", "-w", "-t", "120", "-D", dataDir().toString()),
            Duration.ofSeconds(150));
    if (result.exitCode != 0 && isRunning()) {
      run(
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
      shell
          .append(shell.length() == 0 ? "" : " ")
          .append("'")
          .append(arg.replace("'", "'\\''"))
          .append("'");
    }
    return shell.toString();
  }

  /** The file with the superuser's password, readable by pgknob's user only. */
  public Path passwordFile() {
    return clusterDir.resolve("password");
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
    ProcessResult result =
        run(List.of(pgCtl(), "reload", "-D", dataDir().toString()), Duration.ofSeconds(30));
    if (result.exitCode != 0) {
      throw new PgknobException(
          "pg_ctl reload failed: " + result.output.trim(), "check that the server is running");
    }
  }

  private void stopQuietly() {
    try {
      stop();
    } catch (RuntimeException e) {
      // best effort: the caller reports the start failure
    }
  }

  private void initIfNeeded() {
    Path data = dataDir();
    try {
      if (Files.isRegularFile(data.resolve("PG_VERSION"))) {
        checkClusterVersion(data);
        return;
      }
      if (Files.isDirectory(data)) {
        try (var entries = Files.list(data)) {
          if (entries.findAny().isPresent()) {
            throw new PgknobException(
                "the data folder " + data + " is not empty and holds no PostgreSQL cluster",
                "empty it, or point pgknob at another folder");
          }
        }
      }
      initdb();
    } catch (IOException e) {
      throw new PgknobException(
          "cannot prepare the cluster folder " + clusterDir + ": " + e.getMessage(),
          "check the folder's permissions, or set PGKNOB_HOME to a writable folder",
          e);
    }
  }

  private void checkClusterVersion(Path data) throws IOException {
    String version = Files.readString(data.resolve("PG_VERSION")).trim();
    String binaryMajor = Integer.toString(binaries.major());
    if (!version.equals(binaryMajor)) {
      throw new PgknobException(
          "the data folder "
              + data
              + " holds a PostgreSQL "
              + version
              + " cluster, and the binaries are PostgreSQL "
              + binaryMajor,
          "give --pg-version " + version + ", or use another folder");
    }
  }

  private void initdb() throws IOException {
    Files.createDirectories(clusterDir);
    PgknobHome.makeTraversable(clusterDir);
    for (Path p = clusterDir.getParent(); p != null; p = p.getParent()) {
      checkTraversableByServer(p);
    }
    Path data = dataDir();
    Files.createDirectories(data);
    Files.setPosixFilePermissions(data, PosixFilePermissions.fromString("rwx------"));
    Files.createDirectories(logFile().getParent());
    Files.writeString(logFile(), "", StandardCharsets.UTF_8);
    String password = newPassword();
    Path passwordFile = clusterDir.resolve("password");
    Files.writeString(passwordFile, password);
    Files.setPosixFilePermissions(passwordFile, PosixFilePermissions.fromString("rw-------"));
    // initdb reads the password from a file the server user can read; it is removed right after.
    Path pwfile = logFile().getParent().resolve(".initdb-pw");
    Files.writeString(pwfile, password + "\n");
    Files.setPosixFilePermissions(pwfile, PosixFilePermissions.fromString("rw-------"));
    ServerUser.own(data);
    ServerUser.own(logFile().getParent());
    try {
      ProcessResult result =
          run(
              List.of(
                  binaries.bin("initdb").toString(),
                  "-D",
                  data.toString(),
                  "-U",
                  SUPERUSER,
                  "--pwfile=" + pwfile,
                  "--auth=scram-sha-256",
                  "--encoding=UTF8",
                  "--no-locale",
                  "--no-instructions"),
              Duration.ofMinutes(5));
      if (result.exitCode != 0) {
        throw new PgknobException(
            "initdb failed in " + data + ": " + lastLines(result.output, 5),
            "check that the folder is writable and on a local file system");
      }
    } finally {
      Files.deleteIfExists(pwfile);
    }
    Path conf = data.resolve("postgresql.conf");
    Files.writeString(
        conf,
        Files.readString(conf)
            + "\n# Added by pgknob: listen address, port and socket folder of this managed"
            + " cluster.\ninclude_if_exists = '"
            + CLUSTER_CONF
            + "'\n");
    writeClusterConf(port == 0 ? 5432 : port);
  }

  private void writeClusterConf(int listenPort) {
    Path file = dataDir().resolve(CLUSTER_CONF);
    String content =
        "# Written by pgknob at each start of this managed cluster; not a tuned setting.\n"
            + "listen_addresses = '127.0.0.1'\n"
            + "port = "
            + listenPort
            + "\n"
            + "unix_socket_directories = ''\n";
    try {
      Files.writeString(file, content);
      ServerUser.own(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void checkTraversableByServer(Path dir) throws IOException {
    if (!ServerUser.runningAsRoot()) {
      return;
    }
    String perms = PosixFilePermissions.toString(Files.getPosixFilePermissions(dir));
    if (perms.charAt(8) != 'x') {
      throw new PgknobException(
          "the PostgreSQL server runs as uid "
              + ServerUser.UNPRIVILEGED_ID
              + " (PostgreSQL refuses root) and cannot enter "
              + dir
              + " ("
              + perms
              + ")",
          "set PGKNOB_HOME to a folder outside it, e.g. /var/tmp/pgknob");
    }
  }

  private String password() {
    try {
      return Files.readString(clusterDir.resolve("password")).trim();
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

  private long logSize() {
    try {
      return Files.size(logFile());
    } catch (IOException e) {
      return 0;
    }
  }

  /** The FATAL/PANIC/ERROR lines the server logged after {@code offset}. */
  public String serverMessageSince(long offset) {
    try (RandomAccessFile file = new RandomAccessFile(logFile().toFile(), "r")) {
      long length = file.length();
      if (offset > length) {
        offset = 0;
      }
      file.seek(offset);
      byte[] bytes = new byte[(int) Math.min(length - offset, 1 << 20)];
      file.readFully(bytes);
      List<String> important = new ArrayList<>();
      for (String line : new String(bytes, StandardCharsets.UTF_8).split("\n")) {
        if (line.contains("FATAL:") || line.contains("PANIC:") || line.contains("ERROR:")) {
          important.add(line);
        }
      }
      return important.stream()
          .map(ManagedCluster::stripLogPrefix)
          .distinct()
          .reduce((a, b) -> a + "; " + b)
          .orElse("");
    } catch (IOException e) {
      return "";
    }
  }

  private static String stripLogPrefix(String line) {
    for (String level : List.of("FATAL:", "PANIC:", "ERROR:")) {
      int at = line.indexOf(level);
      if (at >= 0) {
        return line.substring(at).replaceAll("\\s+", " ").trim();
      }
    }
    return line;
  }

  private static String lastLines(String text, int n) {
    String[] lines = text.strip().split("\n");
    return String.join(
        " ", java.util.Arrays.copyOfRange(lines, Math.max(0, lines.length - n), lines.length));
  }

  private static String newPassword() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
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

  /** What a child process printed and how it exited. */
  record ProcessResult(int exitCode, String output) {}

  static ProcessResult run(List<String> command, Duration timeout) {
    Path output = null;
    try {
      // Output goes to a file, not a pipe: pg_ctl's children may keep a pipe open long after
      // pg_ctl exits, and a file never blocks the wait below.
      output = Files.createTempFile("pgknob-cmd-", ".out");
      Process process =
          new ProcessBuilder(ServerUser.wrap(command))
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        return new ProcessResult(-1, "timed out after " + timeout.toSeconds() + " s");
      }
      return new ProcessResult(process.exitValue(), Files.readString(output));
    } catch (IOException e) {
      throw new PgknobException(
          "cannot run " + command.get(0) + ": " + e.getMessage(),
          "check that the PostgreSQL binaries were unpacked (delete PGKNOB_HOME to redo it)",
          e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PgknobException("interrupted while running " + command.get(0), "", e);
    } finally {
      if (output != null) {
        try {
          Files.deleteIfExists(output);
        } catch (IOException e) {
          // a leftover temp file is harmless
        }
      }
    }
  }
}
