package org.pgknob.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import org.pgknob.PgknobException;

/**
 * An existing PostgreSQL server reached by a JDBC URL. Settings change with ALTER SYSTEM and
 * pg_reload_conf(); a setting that needs a restart uses the user's restart command.
 *
 * <p>The password comes from {@code --password-file}, PGPASSWORD or the libpq password file, never
 * from the command line or the URL, where {@code ps} would show it.
 */
public final class RemoteServer implements Target {
  static final int CONNECT_TIMEOUT_SECONDS = 10;
  private static final int SOCKET_TIMEOUT_SECONDS = 120;

  /**
   * How to reach the server.
   *
   * @param url JDBC URL ({@code postgresql://} URIs are accepted too), without password
   * @param user the role, or null for the URL's user, PGUSER, or the operating-system user
   * @param passwordFile a file holding the password, or null
   * @param restartCommand a shell command that restarts the server, or null (then settings that
   *     need a restart are refused)
   * @param restartTimeout how long the restart command and the server's return may take
   * @param agentCommand a shell command running {@code pgknob agent} on the database host, or null
   * @param requireAgent stop rather than guard on the prediction alone when the agent fails
   */
  public record Options(
      String url,
      String user,
      Path passwordFile,
      String restartCommand,
      Duration restartTimeout,
      String agentCommand,
      boolean requireAgent) {
    public Options(
        String url,
        String user,
        Path passwordFile,
        String restartCommand,
        Duration restartTimeout) {
      this(url, user, passwordFile, restartCommand, restartTimeout, null, false);
    }
  }

  /** How long a starting agent may take to print its first sample (ssh, a JVM, two samples). */
  private static final long AGENT_FIRST_SAMPLE_MILLIS = 20_000;

  private final RemoteAddress address;
  private final String user;
  private final String password; // never logged, printed or persisted
  private final String restartCommand;
  private final Duration restartTimeout;
  private final String dataDirectory;
  private final boolean local; // a loopback host whose postmaster.pid was readable here at the open
  private final SettingsController controller;
  private AgentFeed agent; // null without --agent-command
  private boolean requireAgent;

  private RemoteServer(
      Options options, RemoteAddress address, String user, String password, Connection probe)
      throws SQLException {
    this.address = address;
    this.user = user;
    this.password = password;
    this.restartCommand =
        options.restartCommand() == null || options.restartCommand().isBlank()
            ? null
            : options.restartCommand();
    this.restartTimeout =
        options.restartTimeout() == null ? Duration.ofSeconds(120) : options.restartTimeout();
    this.dataDirectory = dataDirectory(probe);
    this.local = localPostmasterPid().isPresent();
    Control control = new Control();
    this.controller = new SettingsController(control, RestoreFile.defaultPath(control.identity()));
  }

  /**
   * Connects once to check the server answers and the credentials work.
   *
   * @throws PgknobException with a one-line reason: unreachable, unknown host, wrong password, no
   *     such database, timeout
   */
  public static RemoteServer open(Options options) {
    RemoteAddress address = RemoteAddress.parse(options.url());
    if (address.hasPassword()) {
      throw new PgknobException(
          "the URL carries a password, which other users could read in the process list",
          "remove it from the URL and use PGPASSWORD, ~/.pgpass or --password-file");
    }
    String user =
        firstNonBlank(
            options.user(),
            address.user(),
            System.getenv("PGUSER"),
            System.getProperty("user.name"));
    String password = password(options.passwordFile(), address, user);
    Properties props = properties(user, password);
    RemoteServer server;
    try (Connection probe = ControlSession.open(address.jdbcUrl(), props)) {
      SupportedVersions.require(probe.getMetaData(), "the server at " + address.hostPort());
      server = new RemoteServer(options, address, user, password, probe);
    } catch (SQLException e) {
      throw ConnectionErrors.explain(e, address, user, password != null);
    }
    if (options.agentCommand() != null && !options.agentCommand().isBlank()) {
      server.startAgent(options.agentCommand(), options.requireAgent());
    }
    return server;
  }

  private void startAgent(String command, boolean required) {
    this.requireAgent = required;
    this.agent = AgentFeed.start(command);
    if (!agent.awaitFirstSample(AGENT_FIRST_SAMPLE_MILLIS) && required) {
      String why = agent.failure().orElse("failed");
      agent.close();
      throw new PgknobException(
          "the agent command '" + command + "' " + why + ", and --require-agent was given",
          "run the command by hand: it must print one JSON line per second (pgknob agent"
              + " --data-dir DIR on the database host); or leave out --require-agent");
    }
  }

  /** The agent's feed, when --agent-command was given. */
  public Optional<AgentFeed> agent() {
    return Optional.ofNullable(agent);
  }

  /**
   * The agent's figures when it runs; else the local process tree when the server is on this host;
   * else none (the guardrail then relies on the safety rules' prediction alone).
   *
   * @throws PgknobException when the agent failed and --require-agent was given
   */
  @Override
  public Optional<ProcessSampler> newSampler() {
    if (agent != null) {
      Optional<String> failed = agent.failure();
      if (failed.isEmpty()) {
        // Only what the agent reads from now on: the server may have restarted since.
        long since = System.nanoTime();
        return Optional.of(
            new ProcessSampler(
                () -> agent.latestArrivedAfter(since), ProcessSampler.DEFAULT_INTERVAL));
      }
      if (requireAgent) {
        throw new PgknobException(
            "the agent command '"
                + agent.command()
                + "' "
                + failed.get()
                + ", and --require-agent"
                + " was given",
            "fix the agent and resume the session, or resume without --require-agent");
      }
    }
    return Target.super.newSampler();
  }

  /** As {@link Target#disks}, or else as the agent last read them on the database host. */
  @Override
  public Optional<DiskReading> disks(ServerFacts facts) {
    Optional<DiskReading> here = Target.super.disks(facts);
    if (here.isPresent() || agent == null) {
      return here;
    }
    String where =
        (facts.dataDirectory() == null ? "the data directory" : facts.dataDirectory())
            + " on the database host, as the agent reads it";
    return agent
        .latest()
        .filter(s -> s.diskFreeBytes() >= 0 || s.walRoomBytes() >= 0)
        .map(s -> new DiskReading(s.diskFreeBytes(), s.walRoomBytes(), where));
  }

  private static String password(Path passwordFile, RemoteAddress address, String user) {
    if (passwordFile != null) {
      PgPass.requireOwnerOnly(passwordFile, "password file");
      try {
        List<String> lines = Files.readAllLines(passwordFile);
        if (lines.isEmpty() || lines.get(0).isEmpty()) {
          throw new PgknobException(
              "the password file " + passwordFile + " is empty",
              "write the password on its first line");
        }
        return lines.get(0);
      } catch (IOException e) {
        throw new PgknobException(
            "cannot read the password file " + passwordFile + ": " + e.getMessage(),
            "check the path and its permissions");
      }
    }
    String env = System.getenv("PGPASSWORD");
    if (env != null && !env.isEmpty()) {
      return env;
    }
    return PgPass.lookup(
            PgPass.location(), address.host(), address.port(), address.database(), user)
        .orElse(null);
  }

  private static Properties properties(String user, String password) {
    Properties props = new Properties();
    props.setProperty("user", user);
    if (password != null) {
      props.setProperty("password", password);
    }
    props.setProperty("connectTimeout", Integer.toString(CONNECT_TIMEOUT_SECONDS));
    props.setProperty("ApplicationName", "pgknob");
    // A statement waiting on a host that stopped answering fails in about 25 s, not two hours.
    return KeepAliveSockets.apply(props);
  }

  @Override
  public TargetIdentity identity() {
    return new Control().identity();
  }

  @Override
  public String describe() {
    return "PostgreSQL at " + address.hostPort() + " as " + user;
  }

  @Override
  public String jdbcUrl(String database) {
    String url = address.jdbcUrl();
    int query = url.indexOf('?');
    return "jdbc:postgresql://"
        + address.hostPort()
        + "/"
        + database
        + (query < 0 ? "" : url.substring(query));
  }

  @Override
  public Properties credentials() {
    return properties(user, password);
  }

  @Override
  public Connection connect(String database) throws SQLException {
    return DriverManager.getConnection(jdbcUrl(database), credentials());
  }

  @Override
  public Optional<String> memoryGuardNotice() {
    if (agent().isPresent() || isLocal()) {
      return Optional.empty();
    }
    return Optional.of(
        "memory guard: no agent reports the memory of "
            + describe()
            + " (it runs on another host, or its data folder cannot be read here; see"
            + " --agent-command): the memory guardrail relies on the safety rules' prediction"
            + " alone");
  }

  /** True when the server runs on this host and its data folder can be read here. */
  public boolean isLocal() {
    return local;
  }

  /**
   * The postmaster's pid as postmaster.pid says now, when the server runs here.
   *
   * <p>Why now: a restart gives the server a new postmaster. Read once at the open, the pid of the
   * first one gave every later trial's sampler a process that had gone: after a session's first
   * restart it read 0 bytes of memory (so the memory guardrail saw nothing), no other processes'
   * load and no disk.
   */
  private OptionalLong postmasterPid() {
    return local ? localPostmasterPid() : OptionalLong.empty();
  }

  @Override
  public ServerFacts facts() {
    try (Connection conn = controlConnection()) {
      ServerFacts facts = FactsReader.read(conn, local, postmasterPid());
      Optional<ProcessSample> host = agent == null ? Optional.empty() : agent.latest();
      if (facts.local() || host.isEmpty()) {
        return facts;
      }
      // The database host's RAM, cores and cgroup limits, as the agent reads them there: under a
      // CPU quota the server has the quota's cores, not the host's (nor this host's).
      ProcessSample s = host.get();
      return new ServerFacts(
          facts.serverVersion(),
          facts.serverVersionNum(),
          facts.dataDirectory(),
          false,
          OptionalLong.of(s.hostMemTotalBytes()),
          s.usableCores() > 0 ? OptionalInt.of(s.usableCores()) : OptionalInt.empty(),
          s.cgroupLimitBytes() > 0 ? OptionalLong.of(s.cgroupLimitBytes()) : OptionalLong.empty(),
          OptionalLong.empty(),
          facts.user(),
          facts.superuser());
    } catch (SQLException e) {
      throw ConnectionErrors.explain(e, address, user, password != null);
    }
  }

  @Override
  public List<ServerSetting> settings() {
    return controller.settings();
  }

  @Override
  public ApplyReport configure(Map<String, String> settings) {
    return controller.configure(settings);
  }

  @Override
  public Map<String, String> appliedSettings() {
    return controller.applied();
  }

  @Override
  public ApplyReport restoreOriginals() {
    return controller.restoreOriginals(false);
  }

  @Override
  public ApplyReport restoreOriginalsForGood() {
    return controller.restoreOriginals(true);
  }

  @Override
  public void restart() {
    new Control().restart();
  }

  @Override
  public Path restoreFile() {
    return controller.restoreFile();
  }

  @Override
  public void useRestoreFile(Path file) {
    controller.useRestoreFile(file);
  }

  /**
   * An existing server is left running as it was found; the control connections are closed and the
   * agent is stopped.
   */
  @Override
  public void close() {
    controller.close();
    if (agent != null) {
      agent.close();
    }
  }

  private Connection controlConnection() throws SQLException {
    Properties props = credentials();
    props.setProperty("socketTimeout", Integer.toString(SOCKET_TIMEOUT_SECONDS));
    props.setProperty("ApplicationName", ControlPool.APPLICATION_NAME);
    return ControlSession.open(address.jdbcUrl(), props);
  }

  private static String dataDirectory(Connection conn) throws SQLException {
    try (Statement st = conn.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT setting FROM pg_catalog.pg_settings WHERE name = 'data_directory'")) {
      return rs.next() ? rs.getString(1) : null; // hidden without pg_read_all_settings
    }
  }

  /**
   * The postmaster's pid when the server runs here: a loopback host whose postmaster.pid we read.
   */
  private OptionalLong localPostmasterPid() {
    if (!address.isLoopback() || dataDirectory == null) {
      return OptionalLong.empty();
    }
    try {
      List<String> lines = Files.readAllLines(Path.of(dataDirectory, "postmaster.pid"));
      // Line 4 is the port: the same folder path could belong to another server (a container).
      if (lines.size() > 3 && Integer.parseInt(lines.get(3).trim()) == address.port()) {
        return OptionalLong.of(Long.parseLong(lines.get(0).trim()));
      }
    } catch (IOException | RuntimeException e) {
      // not readable here: treat as another host
    }
    return OptionalLong.empty();
  }

  private static String firstNonBlank(String... values) {
    for (String v : values) {
      if (v != null && !v.isBlank()) {
        return v;
      }
    }
    return "postgres";
  }

  /**
   * Restarts through the user's command; reads and rewrites postgresql.auto.conf only when local.
   */
  private final class Control implements ServerControl {
    @Override
    public TargetIdentity identity() {
      return new TargetIdentity(
          TargetIdentity.REMOTE,
          null,
          address.jdbcUrl(),
          user,
          restartCommand,
          restartTimeout.toSeconds());
    }

    @Override
    public String describe() {
      return RemoteServer.this.describe();
    }

    @Override
    public Connection connect() throws SQLException {
      return controlConnection();
    }

    @Override
    public boolean answers(Duration wait) {
      long deadline = System.nanoTime() + wait.toNanos();
      while (true) {
        try (Connection conn = controlConnection()) {
          return true;
        } catch (SQLException e) {
          if (System.nanoTime() > deadline) {
            return false;
          }
        }
        try {
          Thread.sleep(500);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }

    @Override
    public boolean canRestart() {
      return restartCommand != null;
    }

    @Override
    public void restart() {
      if (restartCommand == null) {
        throw new PgknobException(
            describe() + " needs a restart and no restart command was given",
            "add --restart-command, e.g. 'sudo systemctl restart postgresql'");
      }
      String startedBefore = postmasterStartTime().orElse(null);
      long deadline = System.nanoTime() + restartTimeout.toNanos();
      RestartCommand.Result result = RestartCommand.run(restartCommand, restartTimeout);
      if (!result.ok()) {
        throw new ServerStartException(
            "the restart command " + result.problem(),
            result.outputTail(),
            "check --restart-command");
      }
      // The command may return before the server is back, or without restarting it at all.
      while (true) {
        Optional<String> startedNow = postmasterStartTime();
        if (startedNow.isPresent() && !startedNow.get().equals(startedBefore)) {
          return;
        }
        if (System.nanoTime() > deadline) {
          throw new ServerStartException(
              startedNow.isPresent()
                  ? "the restart command did not restart the server (pg_postmaster_start_time is unchanged)"
                  : "the server did not answer within "
                      + restartTimeout.toSeconds()
                      + " s after the restart command",
              result.outputTail(),
              "check --restart-command and the server's log");
        }
        try {
          Thread.sleep(500);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new PgknobException("interrupted while waiting for the server to restart", "");
        }
      }
    }

    private Optional<String> postmasterStartTime() {
      try (Connection conn = controlConnection();
          Statement st = conn.createStatement();
          ResultSet rs = st.executeQuery("SELECT pg_catalog.pg_postmaster_start_time()::text")) {
        rs.next();
        return Optional.of(rs.getString(1));
      } catch (SQLException e) {
        return Optional.empty();
      }
    }

    @Override
    public Optional<String> readAutoConf(Connection conn) {
      if (isLocal()) {
        try {
          return Optional.of(Files.readString(autoConfFile()));
        } catch (IOException e) {
          // fall back to asking the server
        }
      }
      try (Statement st = conn.createStatement();
          ResultSet rs =
              st.executeQuery("SELECT pg_catalog.pg_read_file('" + AutoConf.FILE_NAME + "')")) {
        rs.next();
        return Optional.ofNullable(rs.getString(1));
      } catch (SQLException e) {
        return Optional.empty(); // needs a superuser or pg_read_server_files
      }
    }

    @Override
    public boolean startWithAutoConf(String content) {
      if (restartCommand == null || !rewriteAutoConf(content)) {
        return false;
      }
      restart();
      return true;
    }

    @Override
    public boolean rewriteAutoConf(String content) {
      Path file = isLocal() ? autoConfFile() : null;
      if (file == null || !Files.isWritable(file)) {
        return false;
      }
      try {
        // Like ALTER SYSTEM: a temporary file renamed over the old one, same owner and mode.
        Path tmp = file.resolveSibling(AutoConf.FILE_NAME + ".tmp");
        Files.writeString(tmp, content);
        Files.setPosixFilePermissions(tmp, Files.getPosixFilePermissions(file));
        Files.setOwner(tmp, Files.getOwner(file));
        Files.setAttribute(tmp, "unix:gid", Files.getAttribute(file, "unix:gid"));
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (IOException | UnsupportedOperationException e) {
        return false;
      }
      return true;
    }

    @Override
    public void checkPrivileges(Connection conn, Set<String> names) throws SQLException {
      Privileges.require(conn, names);
    }

    private Path autoConfFile() {
      return Path.of(dataDirectory, AutoConf.FILE_NAME);
    }
  }
}
