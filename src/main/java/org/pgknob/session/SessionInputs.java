package org.pgknob.session;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pgknob.PgknobException;

/**
 * What the user asked a tuning session for. Stored in session.json as a map, so a resumed session
 * runs with exactly the same inputs.
 *
 * @param warehouses TPROC-C warehouses
 * @param virtualUsers TPROC-C virtual users (one connection each)
 * @param rampupSeconds warm-up before each measured window
 * @param windowSeconds the measured window of each trial
 * @param allWarehouses HammerDB's "use all warehouses" option
 * @param budget the --budget text
 * @param tracks reload, restart, in the order they run
 * @param objective tps or latency: what the Bayesian phase optimizes
 * @param spaceFile the search-space file, or null for the bundled one
 * @param rulesFile the safety-rules file, or null for the bundled one
 * @param allowDurabilityTradeoff whether synchronous_commit=off may be proposed
 * @param ramBytes --ram in bytes, or 0 when not given
 * @param seed the session's random seed
 * @param surrogate gp or rf
 * @param applyBest leave the best restart/objective configuration applied at the end
 * @param workloadCommand a benchmark command run as each trial's workload instead of TPROC-C, or
 *     null
 * @param pgtune --storage, --cpus and --connections for the PGTune-style configuration
 */
public record SessionInputs(
    int warehouses,
    int virtualUsers,
    int rampupSeconds,
    int windowSeconds,
    boolean allWarehouses,
    String budget,
    List<String> tracks,
    String objective,
    String spaceFile,
    String rulesFile,
    boolean allowDurabilityTradeoff,
    long ramBytes,
    long seed,
    String surrogate,
    boolean applyBest,
    String workloadCommand,
    PgTuneOptions pgtune) {

  public static final List<String> TRACKS = List.of("reload", "restart");
  public static final List<String> OBJECTIVES = List.of("tps", "latency");

  public SessionInputs {
    pgtune = pgtune == null ? PgTuneOptions.MEASURED : pgtune;
    tracks = List.copyOf(new java.util.LinkedHashSet<>(tracks)); // --tracks reload,reload is one
    if (tracks.isEmpty()) {
      throw new PgknobException("--tracks names no track", "give reload, restart or both");
    }
    for (String t : tracks) {
      if (!TRACKS.contains(t)) {
        throw new PgknobException(
            "unknown track '" + t + "'", "--tracks takes reload, restart or reload,restart");
      }
    }
    if (tracks.size() == 2 && !tracks.get(0).equals("reload")) {
      tracks = TRACKS; // reload-only first: it causes no downtime, and restart warm-starts from it
    }
    if (!OBJECTIVES.contains(objective)) {
      throw new PgknobException(
          "unknown objective '" + objective + "'", "--objective takes tps or latency");
    }
    if (warehouses < 1) {
      throw new PgknobException(
          "--warehouses must be at least 1, but got " + warehouses, "give 1 or more");
    }
    if (virtualUsers < 1) {
      throw new PgknobException(
          "--vus must be at least 1, but got " + virtualUsers, "give 1 or more");
    }
    if (windowSeconds < 1 || rampupSeconds < 0) {
      throw new PgknobException(
          "--duration must be at least 1 s and --rampup at least 0 s, but got "
              + windowSeconds
              + " s and "
              + rampupSeconds
              + " s",
          "give positive durations, e.g. --rampup 10s --duration 30s");
    }
    if (!List.of("gp", "rf").contains(surrogate)) {
      throw new PgknobException("unknown surrogate '" + surrogate + "'", "choose gp or rf");
    }
  }

  /**
   * The trials the budget allows by the estimate made before any trial ran (the one the session
   * plans with), so that a budget too small is refused before anything is created or changed.
   *
   * @throws PgknobException when it is less than a session's minimum, saying what the minimum is
   */
  public int trialsAllowed() {
    long databaseBytes = warehouses * 100L * 1024 * 1024; // about 100 MB per TPROC-C warehouse
    return Budget.parse(budget)
        .trialsFor(
            Budget.estimateTrialSeconds(databaseBytes, rampupSeconds, windowSeconds, true),
            ValidationStats.MIN_VALIDATION_PAIRS);
  }

  /** The inputs as session.json keeps them. */
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("warehouses", warehouses);
    m.put("virtualUsers", virtualUsers);
    m.put("rampupSeconds", rampupSeconds);
    m.put("windowSeconds", windowSeconds);
    m.put("allWarehouses", allWarehouses);
    m.put("budget", budget);
    m.put("tracks", tracks);
    m.put("objective", objective);
    m.put("spaceFile", spaceFile == null ? "" : spaceFile);
    m.put("rulesFile", rulesFile == null ? "" : rulesFile);
    m.put("allowDurabilityTradeoff", allowDurabilityTradeoff);
    m.put("ramBytes", ramBytes);
    m.put("seed", seed);
    m.put("surrogate", surrogate);
    m.put("applyBest", applyBest);
    m.put("workloadCommand", workloadCommand == null ? "" : workloadCommand);
    m.put("pgtune", pgtune.toMap());
    return m;
  }

  /** The inputs back from session.json. */
  @SuppressWarnings("unchecked")
  public static SessionInputs fromMap(Map<String, Object> m) {
    return new SessionInputs(
        ((Number) m.get("warehouses")).intValue(),
        ((Number) m.get("virtualUsers")).intValue(),
        ((Number) m.get("rampupSeconds")).intValue(),
        ((Number) m.get("windowSeconds")).intValue(),
        (Boolean) m.get("allWarehouses"),
        (String) m.get("budget"),
        (List<String>) m.get("tracks"),
        (String) m.get("objective"),
        emptyToNull((String) m.get("spaceFile")),
        emptyToNull((String) m.get("rulesFile")),
        (Boolean) m.get("allowDurabilityTradeoff"),
        ((Number) m.get("ramBytes")).longValue(),
        ((Number) m.get("seed")).longValue(),
        (String) m.get("surrogate"),
        (Boolean) m.get("applyBest"),
        emptyToNull((String) m.getOrDefault("workloadCommand", "")),
        PgTuneOptions.fromMap(m.get("pgtune")));
  }

  /** The workload as the summary and report show it. */
  public Map<String, Object> workloadDescription() {
    Map<String, Object> m = new LinkedHashMap<>();
    if (workloadCommand != null) {
      m.put("name", "command");
      m.put("command", workloadCommand);
      return m;
    }
    m.put("name", "tprocc");
    m.put("warehouses", warehouses);
    m.put("vus", virtualUsers);
    m.put("rampupSeconds", rampupSeconds);
    m.put("windowSeconds", windowSeconds);
    m.put("allWarehouses", allWarehouses);
    return m;
  }

  private static String emptyToNull(String s) {
    return s == null || s.isEmpty() ? null : s;
  }
}
