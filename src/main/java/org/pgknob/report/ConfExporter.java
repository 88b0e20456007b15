package org.pgknob.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.pgknob.Json;
import org.pgknob.PgknobException;

/**
 * Writes a {@link BestConfig} in the three forms a user applies: a postgresql.conf fragment, an
 * ALTER SYSTEM script, and JSON for automation. Values are always quoted, so units and words need
 * no case analysis, and quotes inside values are escaped.
 */
public final class ConfExporter {
  private static final Pattern SETTING_NAME =
      Pattern.compile("[a-z_][a-z0-9_]*(\\.[a-z_][a-z0-9_]*)?");

  /** The export formats and the file extension of each. */
  public enum Format {
    CONF("conf"),
    ALTER_SYSTEM("sql"),
    JSON("json");

    private final String extension;

    Format(String extension) {
      this.extension = extension;
    }

    public String extension() {
      return extension;
    }

    /** conf, alter-system or json. */
    public static Format parse(String text) {
      return switch (text.toLowerCase(Locale.ROOT)) {
        case "conf" -> CONF;
        case "alter-system", "sql" -> ALTER_SYSTEM;
        case "json" -> JSON;
        default ->
            throw new PgknobException(
                "unknown export format '" + text + "'", "use conf, alter-system or json");
      };
    }
  }

  private ConfExporter() {}

  public static String write(BestConfig config, Format format) {
    return switch (format) {
      case CONF -> conf(config);
      case ALTER_SYSTEM -> alterSystem(config);
      case JSON -> json(config);
    };
  }

  /** A postgresql.conf fragment: a header, then per setting a comment line and the setting. */
  public static String conf(BestConfig config) {
    StringBuilder b = new StringBuilder();
    header(config, "# ", b);
    b.append("# Add to postgresql.conf (or include it); settings marked \"restart\" take effect")
        .append(" only after a server restart, the others after a reload.\n");
    for (BestConfig.Setting s : config.settings()) {
      b.append('\n').append("# ").append(describe(s)).append('\n');
      riskLine(s, "# ", b);
      b.append(checkedName(s.name())).append(" = ").append(confQuote(s.value())).append('\n');
    }
    return b.toString();
  }

  /**
   * The same as ALTER SYSTEM statements for psql, ending with pg_reload_conf() and a comment naming
   * the settings that need a restart. Not in a transaction: ALTER SYSTEM refuses to run in one.
   */
  public static String alterSystem(BestConfig config) {
    StringBuilder b = new StringBuilder();
    header(config, "-- ", b);
    b.append(
        "-- Run as a superuser, e.g. psql -f this-file; undo with ALTER SYSTEM RESET <name>.\n");
    for (BestConfig.Setting s : config.settings()) {
      b.append("-- ").append(describe(s)).append('\n');
      riskLine(s, "-- ", b);
      b.append("ALTER SYSTEM SET ")
          .append(checkedName(s.name()))
          .append(" = ")
          .append(sqlLiteral(s.value()))
          .append(";\n");
    }
    b.append("SELECT pg_reload_conf();\n");
    List<String> restart =
        config.settings().stream()
            .filter(BestConfig.Setting::needsRestart)
            .map(BestConfig.Setting::name)
            .toList();
    if (restart.isEmpty()) {
      b.append("-- Every setting above takes effect with the reload.\n");
    } else {
      b.append("-- Needs a server restart to take effect: ")
          .append(String.join(", ", restart))
          .append('\n');
    }
    return b.toString();
  }

  /** JSON: the settings as a name-to-value map for tools, and the details per setting. */
  public static String json(BestConfig config) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("session", config.sessionId());
    out.put("name", config.name());
    out.put("postgresVersion", config.postgresVersion());
    out.put("validation", config.verdict());
    out.put("about", config.about());
    if (!config.diskWarning().isEmpty()) {
      out.put("diskWarning", config.diskWarning());
    }
    out.put("settings", config.values());
    out.put("details", config.settings());
    out.put(
        "restartNeeded",
        config.settings().stream()
            .filter(BestConfig.Setting::needsRestart)
            .map(BestConfig.Setting::name)
            .toList());
    try {
      return Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(out) + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the export as JSON", e);
    }
  }

  /**
   * Whether a postgresql.conf fragment is this exporter's PGTune-style row ({@code pgknob export
   * --track pgtune}): its first line names it. {@code pgknob compare --config} then measures it as
   * the PGTune-style row, so the picks are compared with it round by round as in a session.
   */
  public static boolean isPgTuneExport(String confText) {
    return confText.startsWith("# " + title("pgtune"));
  }

  /** The first line's words up to the session id: one format for the writer and the reader. */
  private static String title(String configName) {
    return "pgknob: " + configName + " configuration of session ";
  }

  private static void header(BestConfig config, String comment, StringBuilder b) {
    b.append(comment)
        .append(title(config.name()))
        .append(config.sessionId())
        .append(", PostgreSQL ")
        .append(config.postgresVersion())
        .append('\n');
    b.append(comment)
        .append("Validated against the defaults: ")
        .append(config.verdict().isEmpty() ? "not validated" : config.verdict())
        .append('\n');
    for (String line : config.about()) {
      b.append(comment).append(oneLine(line)).append('\n');
    }
    List<String> risky =
        config.settings().stream()
            .filter(s -> !s.durabilityRisk().isEmpty())
            .map(s -> s.name() + "=" + s.value())
            .toList();
    if (!risky.isEmpty()) {
      b.append(comment)
          .append("NOT DURABLE: ")
          .append(String.join(", ", risky))
          .append(" trades durability for speed (see the line above each); leave ")
          .append(risky.size() == 1 ? "it" : "them")
          .append(" out where every commit must survive a crash.\n");
    }
    if (!config.diskWarning().isEmpty()) {
      b.append(comment)
          .append("TOO MUCH WAL FOR THE DISK: ")
          .append(oneLine(config.diskWarning()))
          .append(". Lower max_wal_size first, or give the WAL more room: a full WAL disk stops")
          .append(" the server.\n");
    }
  }

  /** "# NOT DURABLE: the last commits before a crash may be lost, ...", for a risky setting. */
  private static void riskLine(BestConfig.Setting s, String comment, StringBuilder b) {
    if (!s.durabilityRisk().isEmpty()) {
      b.append(comment).append("NOT DURABLE: ").append(oneLine(s.durabilityRisk())).append('\n');
    }
  }

  /** "shared_buffers: 128MB (default) -> 1GB; sweep: +18.0% TPS at this value; restart". */
  static String describe(BestConfig.Setting s) {
    String from = s.defaultValue().isEmpty() ? "default unknown" : s.defaultValue() + " (default)";
    String effect = s.effect().isEmpty() ? "effect not measured alone" : s.effect();
    String context = s.context().isEmpty() ? "reload or restart unknown" : s.context();
    return oneLine(s.name() + ": " + from + " -> " + s.value() + "; " + effect + "; " + context);
  }

  private static String oneLine(String text) {
    return text.replaceAll("[\\r\\n]+", " ");
  }

  static String checkedName(String name) {
    if (!SETTING_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("not a PostgreSQL setting name: " + name);
    }
    return name;
  }

  private static void checkValue(String value) {
    for (char c : value.toCharArray()) {
      if (c < 0x20) {
        throw new IllegalArgumentException(
            "a setting value cannot hold control characters: " + value);
      }
    }
  }

  /** A postgresql.conf quoted value: quotes doubled, backslashes escaped. */
  static String confQuote(String value) {
    checkValue(value);
    return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'";
  }

  /**
   * A SQL string literal that means the same whatever standard_conforming_strings is: plain quotes
   * when the value has no backslash, else an E'' literal with backslashes escaped.
   */
  static String sqlLiteral(String value) {
    checkValue(value);
    String quoted = value.replace("'", "''");
    if (value.indexOf('\\') < 0) {
      return "'" + quoted + "'";
    }
    return "E'" + quoted.replace("\\", "\\\\") + "'";
  }
}
