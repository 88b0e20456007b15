package org.pgknob.server;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Properties;
import org.pgknob.PgknobException;

/**
 * One pgknob at a time per server. Two processes changing the same server would record each other's
 * trial values as originals and leave the server on them.
 *
 * <p>Two locks, both held for the whole command and released by the operating system or the server
 * when the process dies (so a kill -9 leaves nothing to clean up by hand):
 *
 * <ul>
 *   <li>{@code PGKNOB_HOME/locks/KEY.lock} with {@link FileChannel#tryLock()}: pgknob processes of
 *       this host and home. It holds the holder's pid, command and start time, for the refusal; a
 *       file still holding them when its lock is free belonged to a process that died, and is taken
 *       over with a line saying so.
 *   <li>a PostgreSQL advisory lock ({@code pg_try_advisory_lock} on a fixed key, database postgres)
 *       on a control session whose application_name names the holder: pgknob processes on other
 *       hosts or with another home. A restart ends that session, so a keeper thread takes the lock
 *       again as soon as the server answers.
 * </ul>
 */
public final class ServerLock implements AutoCloseable {
  /** 'pgknob' in ASCII: the advisory lock key every pgknob uses. */
  static final long ADVISORY_KEY = 0x70676B6E6F62L;

  private static final long KEEPER_PERIOD_MS = 1000;
  private static final long HOLDER_GONE_WAIT_NANOS = 3_000_000_000L;

  /** This process's locks not yet released, for {@link #releaseHeldOn} and {@link #releaseAll}. */
  private static final java.util.Set<ServerLock> HELD =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  private final Path file;
  private final FileChannel channel;
  private final FileLock fileLock;
  private final String holder;
  private final PrintWriter err;
  private volatile Target target;
  private volatile Connection advisory;
  private volatile boolean closed;
  private Thread keeper;

  private ServerLock(
      Path file, FileChannel channel, FileLock fileLock, String holder, PrintWriter err) {
    this.file = file;
    this.channel = channel;
    this.fileLock = fileLock;
    this.holder = holder;
    this.err = err;
  }

  /** The lock file of a server: PGKNOB_HOME/locks/KEY.lock. */
  public static Path lockFile(TargetIdentity identity) {
    return PgknobHome.resolve().resolve("locks").resolve(identity.key() + ".lock");
  }

  /** When the holder took the lock, as people read times: 2026-12-01 08:40:12 UTC. */
  private static final java.time.format.DateTimeFormatter SINCE =
      java.time.format.DateTimeFormatter.ofPattern(
              "yyyy-MM-dd HH:mm:ss 'UTC'", java.util.Locale.ROOT)
          .withZone(java.time.ZoneOffset.UTC);

  /**
   * Takes the file lock of {@code identity} for {@code command}, before the server is touched.
   *
   * @throws PgknobException naming the holder when another pgknob holds it
   */
  public static ServerLock acquire(TargetIdentity identity, String command, PrintWriter err) {
    Path file = lockFile(identity);
    String holder =
        "pid "
            + ProcessHandle.current().pid()
            + " on "
            + hostName()
            + ", pgknob "
            + command
            + ", since "
            + SINCE.format(Instant.now());
    FileChannel channel = null;
    try {
      Files.createDirectories(file.getParent());
      channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null; // held by this very process (another command of the same JVM)
      }
      String previous = read(channel);
      if (lock == null) {
        channel.close();
        throw refused(identity, previous.isEmpty() ? "another pgknob process" : previous);
      }
      if (!previous.isEmpty()) {
        err.println(
            "pgknob: took over the lock of "
                + previous
                + ", which is no longer running ("
                + file
                + ")");
        err.flush();
      }
      channel.truncate(0);
      channel.write(ByteBuffer.wrap((holder + "\n").getBytes(StandardCharsets.UTF_8)), 0);
      channel.force(true);
      ServerLock taken = new ServerLock(file, channel, lock, holder, err);
      HELD.add(taken);
      return taken;
    } catch (IOException e) {
      closeQuietly(channel);
      throw new PgknobException(
          "cannot take the lock file " + file + ": " + e.getMessage(),
          "check that PGKNOB_HOME (" + PgknobHome.resolve() + ") is writable");
    }
  }

  /**
   * Takes the server's advisory lock too, now if the server answers, else as soon as it does.
   *
   * @throws PgknobException naming the holder when another pgknob holds it (this lock is released)
   */
  public void alsoOnServer(Target server) {
    this.target = server;
    try {
      takeAdvisory();
    } catch (PgknobException e) {
      close();
      throw e;
    } catch (SQLException e) {
      // the server is down (a restore may start it): the keeper takes the lock once it answers
    }
    keeper = new Thread(this::keep, "pgknob-server-lock");
    keeper.setDaemon(true);
    keeper.start();
  }

  private synchronized void takeAdvisory() throws SQLException {
    if (closed) {
      return;
    }
    Properties props = target.credentials();
    // What pg_stat_activity shows another pgknob that finds the lock taken (63 bytes at most).
    String name = "pgknob " + holder;
    props.setProperty("ApplicationName", name.length() > 63 ? name.substring(0, 63) : name);
    Connection conn = ControlSession.open(target.jdbcUrl("postgres"), props);
    long deadline = System.nanoTime() + HOLDER_GONE_WAIT_NANOS;
    try (PreparedStatement ps =
        conn.prepareStatement("SELECT pg_catalog.pg_try_advisory_lock(?)")) {
      ps.setLong(1, ADVISORY_KEY);
      boolean tookOver = false;
      while (!tryOnce(ps)) {
        // A holder killed a moment ago: its server session ends as soon as the server notices.
        if (System.nanoTime() > deadline || !pause()) {
          if (!tookOver && endStaleHolder(conn)) {
            tookOver = true;
            deadline = System.nanoTime() + HOLDER_GONE_WAIT_NANOS;
            continue;
          }
          String other = advisoryHolder(conn);
          conn.close();
          throw refused(target.describe(), other);
        }
      }
    } catch (SQLException e) {
      conn.close();
      throw e;
    }
    advisory = conn;
  }

  private static boolean tryOnce(PreparedStatement ps) throws SQLException {
    try (ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getBoolean(1);
    }
  }

  private static boolean pause() {
    try {
      Thread.sleep(200);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** Keeps the advisory lock: a restart of the server ends the session that held it. */
  private void keep() {
    while (!closed) {
      try {
        Thread.sleep(KEEPER_PERIOD_MS);
        Connection conn = advisory;
        if (closed || (conn != null && conn.isValid(5))) {
          continue;
        }
        closeQuietly(conn);
        advisory = null;
        takeAdvisory();
      } catch (InterruptedException e) {
        return;
      } catch (SQLException e) {
        // still down or restarting: try again
      } catch (PgknobException e) {
        if (!closed) {
          err.println("pgknob: warning: " + e.getMessage());
          err.flush();
        }
        return;
      }
    }
  }

  /**
   * Ends the server session that holds the advisory lock when its holder is gone: a pgknob of this
   * host whose process no longer runs, or this very process (which holds the file lock now, so the
   * session is left from an earlier command whose connection was cut, e.g. by a dropped link: the
   * server keeps such a session until it notices the dead socket). Says so on {@code err}.
   *
   * @return true when a stale session was ended
   */
  private boolean endStaleHolder(Connection conn) {
    try (PreparedStatement ps =
        conn.prepareStatement(
            "SELECT a.pid, a.application_name FROM pg_catalog.pg_locks l"
                + " JOIN pg_catalog.pg_stat_activity a ON a.pid OPERATOR(pg_catalog.=) l.pid"
                + " WHERE l.locktype OPERATOR(pg_catalog.=) 'advisory' AND l.granted"
                + " AND l.objsubid OPERATOR(pg_catalog.=) 1"
                + " AND l.classid::bigint OPERATOR(pg_catalog.=) ?"
                + " AND l.objid::bigint OPERATOR(pg_catalog.=) ? LIMIT 1")) {
      ps.setLong(1, ADVISORY_KEY >>> 32);
      ps.setLong(2, ADVISORY_KEY & 0xFFFFFFFFL);
      int backend;
      String app;
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return false;
        }
        backend = rs.getInt(1);
        app = rs.getString(2);
      }
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("^pgknob pid (\\d+) on ([^,]+),")
              .matcher(app == null ? "" : app);
      if (!m.find() || !m.group(2).equals(hostName())) {
        return false; // another host's pgknob: only it can tell whether it still runs
      }
      long pid = Long.parseLong(m.group(1));
      boolean self = pid == ProcessHandle.current().pid();
      if (!self && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
        return false;
      }
      try (PreparedStatement end =
          conn.prepareStatement("SELECT pg_catalog.pg_terminate_backend(?)")) {
        end.setInt(1, backend);
        try (ResultSet rs = end.executeQuery()) {
          if (!rs.next() || !rs.getBoolean(1)) {
            return false;
          }
        }
      }
      err.println(
          "pgknob: took over the server's lock from "
              + app
              + (self ? " (an earlier command of this process whose connection was cut)" : "")
              + ", which is no longer running");
      err.flush();
      return true;
    } catch (SQLException | NumberFormatException e) {
      return false; // not allowed to see or end it: the refusal names the holder
    }
  }

  /** Who holds the advisory lock, from pg_stat_activity (pgknob names itself there). */
  private static String advisoryHolder(Connection conn) {
    try (PreparedStatement ps =
        conn.prepareStatement(
            "SELECT a.application_name, a.client_addr::text, a.backend_start::text"
                + " FROM pg_catalog.pg_locks l JOIN pg_catalog.pg_stat_activity a"
                + " ON a.pid OPERATOR(pg_catalog.=) l.pid"
                + " WHERE l.locktype OPERATOR(pg_catalog.=) 'advisory' AND l.granted"
                + " AND l.objsubid OPERATOR(pg_catalog.=) 1"
                + " AND l.classid::bigint OPERATOR(pg_catalog.=) ?"
                + " AND l.objid::bigint OPERATOR(pg_catalog.=) ? LIMIT 1")) {
      ps.setLong(1, ADVISORY_KEY >>> 32);
      ps.setLong(2, ADVISORY_KEY & 0xFFFFFFFFL);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          String app = rs.getString(1);
          String from = rs.getString(2);
          return (app == null || app.isEmpty() ? "another pgknob" : app)
              + (from == null ? "" : " (connected from " + from + ")");
        }
      }
    } catch (SQLException e) {
      // not allowed to see it: say what we know
    }
    return "another pgknob process";
  }

  private static PgknobException refused(TargetIdentity identity, String holder) {
    return refused(identity.describe(), holder);
  }

  private static PgknobException refused(String server, String holder) {
    return new PgknobException(
        server + " is in use by another pgknob: " + holder,
        "wait until it ends, or stop it with Ctrl-C (it puts its settings back); only one pgknob"
            + " may work on a server at a time");
  }

  private static String read(FileChannel channel) throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(4096);
    int n = channel.read(buffer, 0);
    return n <= 0 ? "" : new String(buffer.array(), 0, n, StandardCharsets.UTF_8).strip();
  }

  private static String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }

  /**
   * Releases this process's locks of {@code identity}'s server. For the shutdown hook once it has
   * put the server's settings back: the JVM halts when its hooks end, before the command's own
   * release runs, and the lock file would go on naming a holder that stopped cleanly (the next
   * pgknob would say it took over the lock of a process that is no longer running).
   */
  public static void releaseHeldOn(TargetIdentity identity) {
    Path file = lockFile(identity);
    for (ServerLock lock : HELD) {
      if (lock.file.equals(file)) {
        lock.close();
      }
    }
  }

  /**
   * Releases every lock this process holds: a command's locks last exactly as long as the command
   * ({@code Main}'s execution strategy calls this when it ends, however it ends; a killed process
   * loses them with its file descriptors and connections).
   */
  public static void releaseAll() {
    HELD.forEach(ServerLock::close);
  }

  /** Releases both locks; the lock file is emptied, not deleted (another process may open it). */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    HELD.remove(this);
    if (keeper != null) {
      keeper.interrupt();
    }
    closeQuietly(advisory);
    try {
      channel.truncate(0);
      fileLock.release();
    } catch (IOException e) {
      // the lock goes with the channel anyway
    }
    closeQuietly(channel);
  }

  /** Where this lock lives, for messages. */
  public Path file() {
    return file;
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c == null) {
      return;
    }
    try {
      c.close();
    } catch (Exception e) {
      // best effort
    }
  }
}
