package org.pgknob.workload.command;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pgknob.PgknobException;
import org.pgknob.server.Target;
import org.pgknob.workload.CheckpointAccount;
import org.pgknob.workload.LatencySummary;
import org.pgknob.workload.Progress;
import org.pgknob.workload.RunListener;
import org.pgknob.workload.SecondSample;
import org.pgknob.workload.TpccFigures;
import org.pgknob.workload.Workload;
import org.pgknob.workload.WorkloadResult;

/**
 * Any benchmark command as a session's workload ({@code pgknob tune --workload-cmd CMD}), with the
 * protocol of {@code pgknob optimize}: each trial runs {@code sh -c CMD} after pgknob applied the
 * configuration, with the applied settings on standard input as one JSON object, and reads one JSON
 * object from standard output: {@code {"value": TPS}}, optionally with {@code "latency_ms"} and
 * {@code "nopm"}, or {@code {"status": "failed", "reason": "..."}}.
 *
 * <p>The command finds the server in the libpq environment: PGHOST, PGPORT, PGUSER, PGDATABASE, and
 * PGPASSFILE (a file of mode 600 that exists only while the command runs: the password never
 * appears in the environment or on a command line). PGKNOB_JDBC_URL gives the same as a JDBC URL
 * without the password. Resetting its data between trials is the command's job.
 *
 * <p>PGKNOB_RAMPUP_SECONDS and PGKNOB_WINDOW_SECONDS pass on --rampup and --duration for a command
 * that can time its runs; one that also prints {@code "per_second": [...]}, the TPS of each second
 * of its window, gets a window error like a built-in workload's, which {@code --duration auto}
 * chooses the window from.
 */
public final class CommandWorkload implements Workload {
  /**
   * Variables of pgknob's environment the command does not inherit: PGPASSWORD may be how pgknob
   * got the server's password, and the command gets it from PGPASSFILE instead, so it never shows
   * in the command's environment (visible to the user's other processes in /proc).
   */
  static final Set<String> INHERITED_SECRETS = Set.of("PGPASSWORD");

  private final String command;
  private final String database;
  private final Duration timeout;
  private final int rampupSeconds;
  private final int windowSeconds;

  public CommandWorkload(String command, String database, Duration timeout) {
    this(command, database, timeout, 0, 0);
  }

  /**
   * @param rampupSeconds --rampup, passed on as PGKNOB_RAMPUP_SECONDS (0: not passed)
   * @param windowSeconds --duration, passed on as PGKNOB_WINDOW_SECONDS (0: not passed)
   */
  public CommandWorkload(
      String command, String database, Duration timeout, int rampupSeconds, int windowSeconds) {
    if (command == null || command.isBlank()) {
      throw new PgknobException(
          "--workload-cmd is empty", "give the command that runs your benchmark");
    }
    this.command = command;
    this.database = database;
    this.timeout = timeout;
    this.rampupSeconds = rampupSeconds;
    this.windowSeconds = windowSeconds;
  }

  @Override
  public String name() {
    return "command";
  }

  public String database() {
    return database;
  }

  @Override
  public void prepare(Target target, Progress progress) {
    try (Connection c = target.connect(database)) {
      c.isValid(5);
    } catch (SQLException e) {
      throw new PgknobException(
          "cannot connect to database "
              + database
              + " on "
              + target.describe()
              + ": "
              + e.getMessage(),
          "create it, or name another with --workload-db");
    }
  }

  @Override
  public double reset(Target target) {
    return 0;
  }

  @Override
  public WorkloadResult run(Target target, RunListener listener) {
    Path passfile = null;
    try {
      passfile = passfile(target);
      listener.phase("window");
      long start = System.nanoTime();
      CommandOutcome outcome =
          new CommandObjective(
                  command, "tps", timeout, environment(target, passfile), INHERITED_SECRETS)
              .run(appliedSettings(target));
      double windowSeconds = (System.nanoTime() - start) / 1e9;
      listener.phase("checkpoint");
      if (!outcome.isOk()) {
        throw new PgknobException(
            "the workload command failed: " + outcome.reason(), "see the command's own output");
      }
      double checkpointSeconds = checkpoint(target);
      double tps = outcome.value("tps").getAsDouble();
      double latency = outcome.value("latency_ms").orElse(0);
      double nopm = outcome.value("nopm").orElse(0);
      double tpm = outcome.value("tpm").orElse(0);
      return new WorkloadResult(
          windowSeconds,
          0,
          0,
          tps,
          // The command's value is the objective as it reported it: pgknob cannot know how it
          // relates to time (it may not be a rate at all), so the CHECKPOINT that follows, run to
          // hand the next trial a clean state, is recorded but not charged to it.
          tps,
          new LatencySummary(0, latency, 0, 0, 0, 0),
          timeline(outcome.perSecond()),
          new CheckpointAccount(checkpointSeconds, 0, 0),
          outcome.metrics(),
          // A TPC-C command (HammerDB) may report NOPM and TPM; others have neither.
          nopm > 0 || tpm > 0 ? new TpccFigures(tpm, nopm, 0, List.of()) : null);
    } finally {
      if (passfile != null) {
        try {
          Files.deleteIfExists(passfile);
        } catch (IOException e) {
          // a temp file of mode 600 in pgknob's own temp folder
        }
      }
    }
  }

  /** The command's per-second values as the measured seconds of a timeline. */
  private static List<SecondSample> timeline(List<Double> perSecond) {
    List<SecondSample> out = new ArrayList<>();
    for (int i = 0; i < perSecond.size(); i++) {
      out.add(new SecondSample(i + 1, true, Math.round(perSecond.get(i)), 0));
    }
    return out;
  }

  @Override
  public int connections() {
    return 1;
  }

  private static Map<String, Object> appliedSettings(Target target) {
    return new LinkedHashMap<>(target.appliedSettings());
  }

  private Map<String, String> environment(Target target, Path passfile) {
    URI uri = URI.create(target.jdbcUrl(database).substring("jdbc:".length()));
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PGHOST", uri.getHost());
    env.put("PGPORT", Integer.toString(uri.getPort() < 0 ? 5432 : uri.getPort()));
    env.put("PGDATABASE", database);
    env.put("PGUSER", target.credentials().getProperty("user", ""));
    env.put("PGKNOB_JDBC_URL", target.jdbcUrl(database));
    if (passfile != null) {
      env.put("PGPASSFILE", passfile.toString());
    }
    if (windowSeconds > 0) {
      env.put("PGKNOB_RAMPUP_SECONDS", Integer.toString(rampupSeconds));
      env.put("PGKNOB_WINDOW_SECONDS", Integer.toString(windowSeconds));
    }
    return env;
  }

  /** A libpq password file for the command, readable by pgknob's user only. */
  private Path passfile(Target target) {
    String password = target.credentials().getProperty("password");
    if (password == null) {
      return null;
    }
    try {
      Path file = Files.createTempFile("pgknob-pgpass-", "");
      // The run's finally deletes it; a Ctrl-C or SIGTERM while the command runs ends the JVM
      // without that finally (the trial's thread is a daemon), and the JVM's exit deletes it then.
      file.toFile().deleteOnExit();
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
      String escaped = password.replace("\\", "\\\\").replace(":", "\\:");
      Files.writeString(file, "*:*:*:*:" + escaped + "\n");
      return file;
    } catch (IOException e) {
      throw new PgknobException(
          "cannot write a password file for the workload command: " + e.getMessage(),
          "check that the temp folder is writable");
    }
  }

  /** Times a CHECKPOINT after the command, so deferred writes count against the trial. */
  private double checkpoint(Target target) {
    long start = System.nanoTime();
    try (Connection c = target.connect("postgres");
        Statement st = c.createStatement()) {
      st.execute("CHECKPOINT");
    } catch (SQLException e) {
      return 0; // a role without CHECKPOINT rights: counted as none
    }
    return (System.nanoTime() - start) / 1e9;
  }
}
