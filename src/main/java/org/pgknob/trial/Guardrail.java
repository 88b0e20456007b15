package org.pgknob.trial;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.pgknob.PgknobException;
import org.pgknob.server.ProcessSample;
import org.pgknob.server.Target;
import org.pgknob.space.PgUnit;

/**
 * Watches the process sampler during a trial and stops the workload the moment the server uses too
 * much memory: the guarded figure (the process tree's PSS by default, summed RSS on request) above
 * the limit, or the host's MemAvailable under a share of MemTotal; or the moment the free space of
 * the server's data or WAL disk falls under a reserve (a WAL disk that fills up stops PostgreSQL
 * with a PANIC, and a configuration with a large max_wal_size lets the WAL grow by gigabytes).
 *
 * <p>On the first such sample it terminates the workload's backends at once (those with the
 * workload's application_name, or every client backend of the database), through a connection it
 * opened beforehand so that stopping never waits for a new connection on a starved host; then it is
 * {@link #tripped()} and tells its callback, which stops the trial and puts safe settings back. It
 * trips once; later samples are ignored.
 *
 * <p>Register it with {@code sampler.addListener(guardrail)}; close it after the trial.
 */
public final class Guardrail implements Consumer<ProcessSample>, AutoCloseable {
  /** Trip when MemAvailable falls under this share of MemTotal, whatever the guarded figure. */
  public static final double DEFAULT_MIN_AVAILABLE_FRACTION = 0.10;

  /** Trip when the server's data or WAL disk has less free than this (the rules' default). */
  public static final long DEFAULT_DISK_RESERVE_BYTES = 1L << 30;

  private static final String APPLICATION_NAME = "pgknob-guardrail";
  private static final String DISK_FREE = "disk free";

  /** Which memory figure is guarded. */
  public enum Figure {
    /** Shared memory counted once: what the server really holds. */
    PSS,
    /** Summed over processes, shared memory once per process (as pidstat): over-counts. */
    RSS
  }

  /**
   * Why and when the guardrail stopped the trial.
   *
   * @param status {@link Status#MEMORY_GUARD}, or {@link Status#DISK_GUARD} for the disk's free
   *     space
   * @param figure what crossed: PSS, RSS, MemAvailable or disk free
   * @param figureBytes its value in the sample that crossed
   * @param limitBytes the line it crossed
   * @param epochMillis when that sample was taken
   * @param backendsTerminated how many backends were terminated
   * @param reason one line for the trial record
   */
  public record Trip(
      Status status,
      String figure,
      long figureBytes,
      long limitBytes,
      long epochMillis,
      int backendsTerminated,
      String reason) {}

  private final Connection control;
  private final String database;
  private final String workloadApplicationName;
  private final long limitBytes;
  private final Figure figure;
  private final double minAvailableFraction;
  private final long diskReserveBytes;
  private final Consumer<Trip> onTrip;
  private final AtomicReference<Trip> trip = new AtomicReference<>();

  /**
   * @param target the server; a control connection is opened now
   * @param database the tuned database whose client backends are stopped
   * @param workloadApplicationName the workload's application_name, or null to stop every client
   *     backend of {@code database}
   * @param limitBytes the memory limit (the safety rules' limit fraction x RAM)
   * @param figure PSS (default) or RSS
   * @param minAvailableFraction trip when MemAvailable is under this share of MemTotal (0 = never)
   * @param diskReserveBytes trip when the server's data or WAL disk has less free space than this
   *     (0 = never; samples without a disk figure never trip it)
   * @param onTrip called once, on the sampler's thread, after the backends were terminated
   */
  public Guardrail(
      Target target,
      String database,
      String workloadApplicationName,
      long limitBytes,
      Figure figure,
      double minAvailableFraction,
      long diskReserveBytes,
      Consumer<Trip> onTrip) {
    this.database = database;
    this.workloadApplicationName = workloadApplicationName;
    this.limitBytes = limitBytes;
    this.figure = figure;
    this.minAvailableFraction = minAvailableFraction;
    this.diskReserveBytes = diskReserveBytes;
    this.onTrip = onTrip;
    try {
      this.control = target.connect(database);
      try (var st = control.createStatement()) {
        st.execute("SET application_name = '" + APPLICATION_NAME + "'");
      }
    } catch (SQLException e) {
      throw new PgknobException(
          "cannot open the memory guardrail's connection to "
              + target.describe()
              + ": "
              + e.getMessage(),
          "check that the server accepts one more connection",
          e);
    }
  }

  /** A guardrail on PSS with the default MemAvailable floor and disk reserve. */
  public Guardrail(
      Target target,
      String database,
      String workloadApplicationName,
      long limitBytes,
      Consumer<Trip> onTrip) {
    this(
        target,
        database,
        workloadApplicationName,
        limitBytes,
        Figure.PSS,
        DEFAULT_MIN_AVAILABLE_FRACTION,
        DEFAULT_DISK_RESERVE_BYTES,
        onTrip);
  }

  public boolean tripped() {
    return trip.get() != null;
  }

  /** Why it tripped, once it has. */
  public Optional<Trip> trip() {
    return Optional.ofNullable(trip.get());
  }

  public long limitBytes() {
    return limitBytes;
  }

  @Override
  public void accept(ProcessSample s) {
    if (tripped()) {
      return;
    }
    // PSS unreadable: guard on RSS, which over-counts and so errs on the safe side.
    boolean pss = figure == Figure.PSS && s.pssBytes() >= 0;
    long guarded = pss ? s.pssBytes() : s.rssBytes();
    String name = pss ? "PSS" : "RSS";
    long floor = (long) (minAvailableFraction * s.hostMemTotalBytes());
    String crossed;
    long value;
    long line;
    if (guarded > limitBytes) {
      crossed = name;
      value = guarded;
      line = limitBytes;
    } else if (s.hostMemTotalBytes() > 0 && s.hostMemAvailableBytes() < floor) {
      crossed = "MemAvailable";
      value = s.hostMemAvailableBytes();
      line = floor;
    } else if (s.diskFreeBytes() >= 0 && s.diskFreeBytes() < diskReserveBytes) {
      crossed = DISK_FREE;
      value = s.diskFreeBytes();
      line = diskReserveBytes;
    } else {
      return;
    }
    int terminated = terminateWorkload();
    String reason =
        crossed.equals(DISK_FREE)
            ? "free space on the server's data or WAL disk fell to "
                + PgUnit.readableBytes(value)
                + ", under the reserve of "
                + PgUnit.readableBytes(line)
                + " (a full WAL disk stops PostgreSQL)"
            : crossed.equals("MemAvailable")
                ? "host MemAvailable "
                    + PgUnit.readableBytes(value)
                    + " fell under "
                    + PgUnit.readableBytes(line)
                    + " ("
                    + minAvailableFraction
                    + " x MemTotal)"
                : "server "
                    + crossed
                    + " "
                    + PgUnit.readableBytes(value)
                    + " crossed the memory limit "
                    + PgUnit.readableBytes(line);
    Trip t =
        new Trip(
            crossed.equals(DISK_FREE) ? Status.DISK_GUARD : Status.MEMORY_GUARD,
            crossed,
            value,
            line,
            s.epochMillis(),
            terminated,
            reason + "; " + terminated + " workload backends terminated");
    if (trip.compareAndSet(null, t) && onTrip != null) {
      onTrip.accept(t);
    }
  }

  /** Terminates the workload's backends; -1 when the server could not be asked. */
  private int terminateWorkload() {
    String sql =
        "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity"
            + " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
            + " AND datname = ? AND (?::text IS NULL OR application_name = ?)";
    synchronized (control) {
      try (PreparedStatement ps = control.prepareStatement(sql)) {
        ps.setString(1, database);
        ps.setString(2, workloadApplicationName);
        ps.setString(3, workloadApplicationName);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          return rs.getInt(1);
        }
      } catch (SQLException e) {
        // The trial is stopped all the same; the session restarts the server if need be.
        return -1;
      }
    }
  }

  @Override
  public void close() {
    try {
      control.close();
    } catch (SQLException e) {
      // closing the control connection cannot fail in a way that matters
    }
  }
}
