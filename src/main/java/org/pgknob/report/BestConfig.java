package org.pgknob.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A recommended configuration, ready to export: the settings of one result row with what is known
 * about each.
 *
 * @param sessionId the session it came from
 * @param name the result row's name: reload/tps, restart/latency, pgtune, ...
 * @param postgresVersion the server it was measured on
 * @param verdict the validation's one line ("1.21x TPS (1.12 to 1.31), gain"), or empty
 * @param settings the changed settings, in order
 * @param about lines for the header: machine, storage, workload, dates, versions
 * @param diskWarning why the WAL these settings let the server keep does not fit the session's disk
 *     limit, or empty when it fits
 */
public record BestConfig(
    String sessionId,
    String name,
    String postgresVersion,
    String verdict,
    List<Setting> settings,
    List<String> about,
    String diskWarning) {
  public BestConfig {
    verdict = verdict == null ? "" : verdict;
    settings = List.copyOf(settings);
    about = about == null ? List.of() : List.copyOf(about);
    diskWarning = diskWarning == null ? "" : diskWarning;
  }

  /** Whose WAL fits the disk. */
  public BestConfig(
      String sessionId,
      String name,
      String postgresVersion,
      String verdict,
      List<Setting> settings,
      List<String> about) {
    this(sessionId, name, postgresVersion, verdict, settings, about, "");
  }

  /** Without header lines beyond the session, name, version and verdict. */
  public BestConfig(
      String sessionId,
      String name,
      String postgresVersion,
      String verdict,
      List<Setting> settings) {
    this(sessionId, name, postgresVersion, verdict, settings, List.of(), "");
  }

  /**
   * One changed setting.
   *
   * @param name the PostgreSQL setting name
   * @param value the recommended value as PostgreSQL takes it
   * @param defaultValue the server's default, or empty when unknown
   * @param context reload, restart, or empty when unknown
   * @param effect what the session measured about it, e.g. "sweep: +18.0% TPS at this value"
   * @param durabilityRisk what the value gives up (synchronous_commit=off: the last commits before
   *     a crash may be lost), or empty when it is durable
   */
  public record Setting(
      String name,
      String value,
      String defaultValue,
      String context,
      String effect,
      String durabilityRisk) {
    public Setting {
      defaultValue = defaultValue == null ? "" : defaultValue;
      context = context == null ? "" : context;
      effect = effect == null ? "" : effect;
      durabilityRisk = durabilityRisk == null ? "" : durabilityRisk;
    }

    /** A durable setting. */
    public Setting(String name, String value, String defaultValue, String context, String effect) {
      this(name, value, defaultValue, context, effect, "");
    }

    public boolean needsRestart() {
      return "restart".equals(context);
    }
  }

  /** Setting name to value, in order. */
  public Map<String, String> values() {
    Map<String, String> out = new LinkedHashMap<>();
    settings.forEach(s -> out.put(s.name(), s.value()));
    return out;
  }
}
