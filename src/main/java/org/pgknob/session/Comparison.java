package org.pgknob.session;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.pgknob.PgknobException;
import org.pgknob.optimize.SurrogateKind;
import org.pgknob.report.ConfExporter;
import org.pgknob.report.ConfFile;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.server.ServerSetting;
import org.pgknob.workload.WorkloadSpec;

/**
 * {@code pgknob compare}: configurations re-measured against the baseline in interleaved rounds. A
 * comparison is a session whose plan has the baseline runs and validation rounds only, each
 * candidate's settings stored in the plan (session.json), so it runs, resumes, reports and exports
 * like any session.
 */
public final class Comparison {
  /** The prefix of a configuration read from a file: config:a.conf. */
  public static final String CONFIG_PREFIX = "config:";

  private Comparison() {}

  /**
   * A configuration to measure.
   *
   * @param name its row in the results: restart/tps, pgtune (from a session), config:a.conf
   * @param settings the settings as PostgreSQL takes them
   */
  public record Candidate(String name, Map<String, String> settings, Map<String, String> origins) {
    public Candidate {
      settings = Map.copyOf(settings);
      origins = Map.copyOf(origins);
    }

    public Candidate(String name, Map<String, String> settings) {
      this(name, settings, Map.of());
    }

    /** Where a setting came from, for messages: "a.conf line 3", else the candidate's name. */
    public String origin(String setting) {
      return origins.getOrDefault(setting, name);
    }
  }

  /**
   * The optima and the PGTune-style configuration of a session's summary.json, validated or not;
   * rows with the same settings are measured once, under the first row's name. A session without a
   * PGTune-style row gets one, computed for the server the comparison runs on (empty settings
   * here).
   *
   * @throws PgknobException when the session has no summary yet or no row changes a setting
   */
  public static List<Candidate> fromSession(SessionFolder run) {
    Summary summary = run.readSummary();
    if (summary.results().isEmpty() && summary.verdict() != null) {
      // A stopped or failed session records its verdict, and nothing to compare yet.
      throw new PgknobException(
          "session " + run.id() + " has not finished (" + summary.state() + ")",
          "go on with: pgknob resume " + run.dir());
    }
    List<Candidate> out = new ArrayList<>();
    Set<Map<String, String>> seen = new HashSet<>();
    for (Summary.ResultRow row : summary.results()) {
      if (!row.settings().isEmpty() && seen.add(row.settings())) {
        out.add(new Candidate(row.name(), row.settings()));
      }
    }
    if (out.stream().noneMatch(c -> c.name().equals("pgtune"))) {
      // A session whose budget left no room to validate it: computed for the server compared on.
      out.add(new Candidate("pgtune", Map.of()));
    }
    if (out.isEmpty()) {
      throw new PgknobException(
          "session " + run.id() + " found no configuration other than the defaults",
          "compare configuration files instead: pgknob compare --config a.conf --config b.conf");
    }
    return out;
  }

  /**
   * The settings of postgresql.conf fragments, one candidate per file named config:FILE_NAME.
   *
   * @throws PgknobException when a file cannot be read, is not postgresql.conf syntax, or sets
   *     nothing
   */
  public static List<Candidate> fromConfFiles(List<Path> files) {
    List<Candidate> out = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (Path file : files) {
      String text;
      try {
        text = Files.readString(file);
      } catch (IOException e) {
        throw new PgknobException(
            "cannot read " + file + ": " + e.getMessage(),
            "give a postgresql.conf fragment that exists and is readable");
      }
      Map<String, String> settings = ConfFile.parse(file.toString(), text);
      Map<String, String> origins = new LinkedHashMap<>();
      ConfFile.lines(file.toString(), text)
          .forEach((setting, line) -> origins.put(setting, file + " line " + line));
      if (settings.isEmpty()) {
        throw new PgknobException(
            file + " sets nothing, so it would only measure the defaults again",
            "give a file with lines such as work_mem = '16MB'");
      }
      // The PGTune-style row a session exported is that row here too (once): the verdict and
      // each pick's ratio to PGTune-style read it by name, as they do in a session.
      String name =
          ConfExporter.isPgTuneExport(text) && !names.contains("pgtune")
              ? "pgtune"
              : CONFIG_PREFIX + file.getFileName();
      for (int n = 2; !names.add(name); n++) {
        name = CONFIG_PREFIX + file.getFileName() + "#" + n; // two a.conf from two folders
      }
      out.add(new Candidate(name, settings, origins));
    }
    return out;
  }

  /**
   * Checks every candidate's setting names against the server's pg_settings.
   *
   * @throws PgknobException naming the candidate and the setting the server does not have or does
   *     not let anyone change
   */
  public static void checkNames(List<Candidate> candidates, List<ServerSetting> server) {
    Map<String, ServerSetting> byName = byName(server);
    for (Candidate c : candidates) {
      for (String name : c.settings().keySet()) {
        ServerSetting s = byName.get(name.toLowerCase(Locale.ROOT));
        if (s == null) {
          throw new PgknobException(
              c.name() + " sets " + name + ", which this server does not have",
              "fix the name or remove that line");
        }
        if (s.isFixed()) {
          throw new PgknobException(
              c.name() + " sets " + name + ", which is fixed when the server is built",
              "remove that line");
        }
      }
    }
  }

  /**
   * The comparison's plan: {@link Budget#MIN_BASELINE_RUNS} baseline runs (the noise level), then
   * {@code rounds} rounds of one baseline run and one run of each candidate, interleaved.
   *
   * @throws PgknobException when {@code rounds} is below {@link SessionPlan#MIN_VALIDATION_ROUNDS}
   */
  public static SessionPlan plan(
      List<Candidate> candidates, List<ServerSetting> server, int rounds) {
    if (rounds < SessionPlan.MIN_VALIDATION_ROUNDS) {
      throw new PgknobException(
          "--rounds must be at least " + SessionPlan.MIN_VALIDATION_ROUNDS + ", but got " + rounds,
          "give --rounds 3 or more for a useful interval");
    }
    Map<String, ServerSetting> byName = byName(server);
    List<SessionPlan.Validation> validations = new ArrayList<>();
    for (Candidate c : candidates) {
      boolean restart =
          c.settings().keySet().stream()
              .map(n -> byName.get(n.toLowerCase(Locale.ROOT)))
              .anyMatch(s -> s != null && s.needsRestart());
      validations.add(new SessionPlan.Validation(c.name(), Track.applying(restart), c.settings()));
    }
    return new SessionPlan(Budget.MIN_BASELINE_RUNS, List.of(), List.of(), validations, rounds);
  }

  /** The workload and times of a comparison's runs. */
  public record Workload(WorkloadSpec spec, int rampupSeconds, int windowSeconds) {}

  /**
   * Whether {@code plan} is a comparison's: baselines and validation rounds only. A tune's plan
   * always searches (its smallest budget keeps one trial for it).
   */
  static boolean isComparison(SessionPlan plan) {
    return plan.sweeps().isEmpty() && plan.bayes().isEmpty();
  }

  /**
   * The comparison's inputs: those of the compared session ({@code base}, as session.json keeps
   * them; empty for --config files), with the workload given, the tracks of the candidates, and a
   * trial budget that is the plan's length.
   */
  public static SessionInputs inputs(
      SessionPlan plan, Map<String, Object> base, Workload workload) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("spaceFile", "");
    m.put("rulesFile", "");
    m.put("allowDurabilityTradeoff", false);
    m.put("ramBytes", 0L);
    m.put("seed", 1L);
    m.put("surrogate", SurrogateKind.GP.label());
    m.putAll(base);
    // A comparison measures fixed windows: a session's --duration auto ends with its choice.
    m.remove("autoWindow");
    m.remove("duration");
    m.put("workload", workload.spec().toMap());
    m.put("rampupSeconds", workload.rampupSeconds());
    m.put("windowSeconds", workload.windowSeconds());
    m.put("budget", Integer.toString(plan.totalTrials()));
    m.put(
        "tracks",
        plan.validations().stream()
            .map(v -> v.track().label())
            .distinct()
            .toList()); // as session.json keeps them
    m.put("objective", Goal.TPS.label());
    m.put("applyBest", false); // a comparison always puts the original settings back
    return SessionInputs.fromMap(m);
  }

  private static Map<String, ServerSetting> byName(List<ServerSetting> server) {
    Map<String, ServerSetting> out = new LinkedHashMap<>();
    for (ServerSetting s : server) {
      out.put(s.name().toLowerCase(Locale.ROOT), s);
    }
    return out;
  }
}
