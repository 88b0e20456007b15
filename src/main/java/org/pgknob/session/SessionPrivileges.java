package org.pgknob.session;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.pgknob.PgknobException;
import org.pgknob.runs.Track;
import org.pgknob.server.Privileges;
import org.pgknob.server.ServerFacts;
import org.pgknob.server.Target;
import org.pgknob.space.BoundSpace;
import org.pgknob.space.Knob;
import org.pgknob.space.PgSetting;
import org.pgknob.space.SearchSpace;
import org.pgknob.space.SearchSpaceFile;
import org.pgknob.space.ServerSpaceValidator;

/**
 * The privileges a session needs from a role that is not a superuser, checked before anything
 * happens: ALTER SYSTEM on each setting the session may change, no more and no fewer.
 *
 * <p>Those settings are the knobs its tracks may propose (the search space as the safety rules
 * leave it: without --allow-unsafe no fsync; the reload track alone proposes nothing that needs a
 * restart) and those the PGTune-style configuration changes, which validation runs beside the picks
 * (whole with the restart track, else its reload settings). Why: the whole space file was asked
 * for, so a reload-only session on Debian's PostgreSQL 15 wanted ALTER SYSTEM on shared_buffers and
 * fsync, grants a DBA is right to refuse, while PGTune-style's settings outside the space
 * (default_statistics_target where it is not 100, the parallel-worker settings from 4 cores) were
 * not asked for, and their first validation run would have failed mid-session.
 */
final class SessionPrivileges {
  /** RAM for PGTune-style's settings when the server's is not known yet (asked for next). */
  private static final long NOMINAL_RAM_BYTES = 8L << 30;

  private SessionPrivileges() {}

  /**
   * @throws PgknobException listing every statement a superuser must run, before any change
   */
  static void require(SessionInputs inputs, SessionPlan givenPlan, Target target) {
    ServerFacts facts = target.facts();
    try (Connection conn = target.connect("postgres")) {
      if (Privileges.isSuperuser(conn)) {
        return; // the usual case, and the managed cluster's: nothing to list or compute
      }
      Map<String, PgSetting> settings = PgSetting.readAll(conn);
      Privileges.requireForSession(
          conn,
          givenPlan == null
              ? settingsChanged(conn, inputs, facts, settings)
              : settingsCompared(conn, inputs, facts, settings, givenPlan),
          // A workload that resets a database from a pristine copy creates databases.
          inputs.workload().databaseBytes() > 0,
          // pgknob's own driver runs a CHECKPOINT around each window.
          inputs.workload().timedByPgknob());
    } catch (SQLException e) {
      throw new PgknobException(
          "cannot check the privileges of the role on " + target.describe() + ": " + e.getMessage(),
          "check the server and the role");
    }
  }

  /**
   * The settings a comparison changes: those of its configurations, and PGTune-style's when it
   * measures that too (computed for this server).
   */
  static Set<String> settingsCompared(
      Connection conn,
      SessionInputs inputs,
      ServerFacts facts,
      Map<String, PgSetting> settings,
      SessionPlan plan)
      throws SQLException {
    Set<String> names = new TreeSet<>();
    for (SessionPlan.Validation v : plan.validations()) {
      names.addAll(v.settings().keySet());
      if (v.name().equals(AgainstPgTune.PGTUNE) && v.settings().isEmpty()) {
        names.addAll(pgTuneSettings(conn, inputs, facts, settings, true));
      }
    }
    return names;
  }

  /** The settings the session may change on a server whose settings are {@code settings}. */
  static Set<String> settingsChanged(
      Connection conn, SessionInputs inputs, ServerFacts facts, Map<String, PgSetting> settings)
      throws SQLException {
    int major = facts.majorVersion();
    SearchSpace file =
        inputs.spaceFile() == null
            ? SearchSpaceFile.loadDefault(major)
            : SearchSpaceFile.load(Path.of(inputs.spaceFile()), major);
    BoundSpace bound = ServerSpaceValidator.bind(file, settings, major);
    SearchSpace space =
        SessionRules.of(inputs).restrictSpace(bound.space(), inputs.allowDurabilityTradeoff());
    boolean restarts = inputs.tracks().contains(Track.RESTART);
    Set<String> names = new TreeSet<>();
    for (Knob k : space.knobs()) {
      if (restarts || !bound.needsRestart(k.name())) {
        names.add(k.name());
      }
    }
    names.addAll(pgTuneSettings(conn, inputs, facts, settings, restarts));
    return names;
  }

  /** The settings PGTune-style changes on this server, or its reload settings alone. */
  private static Set<String> pgTuneSettings(
      Connection conn,
      SessionInputs inputs,
      ServerFacts facts,
      Map<String, PgSetting> settings,
      boolean restarts)
      throws SQLException {
    long ram;
    try {
      ram = SessionContext.ramLimit(inputs, facts).bytes();
    } catch (PgknobException e) {
      // Only the values PGTune-style derives from RAM differ, not which settings it changes.
      ram = NOMINAL_RAM_BYTES;
    }
    Set<String> names = new TreeSet<>();
    for (String name : PgTuneSettings.compute(conn, inputs, facts, ram, settings).keySet()) {
      PgSetting setting = settings.get(name);
      if (restarts || (setting != null && !setting.needsRestart())) {
        names.add(name);
      }
    }
    return names;
  }
}
