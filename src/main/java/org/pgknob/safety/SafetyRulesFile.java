package org.pgknob.safety;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pgknob.PgknobException;
import org.pgknob.space.PgUnit;
import org.pgknob.space.YamlErrors;

/**
 * Reads a safety-rules YAML file; checks what the file alone can tell. Whether each named setting
 * exists is checked against the server by {@link SafetyRules#validateAgainst}.
 *
 * <pre>
 * memory:
 *   limit_fraction: 0.90
 *   per_connection_fallback: 10MB
 *   terms:
 *     shared_buffers: [shared_buffers]
 *     sorts_and_hashes: [active_connections, work_mem, hash_mem_multiplier, 2]
 * relations:
 *   - min_wal_size &lt;= max_wal_size
 * durability:
 *   synchronous_commit: {values: [off], needs: durability-tradeoff, risk: ...}
 * disk:                      # optional; these are the defaults
 *   wal_limit_fraction: 0.5
 *   reserve: 1GB
 * </pre>
 */
public final class SafetyRulesFile {
  /** The default rules, shipped in the jar (and at the top of the source tree). */
  public static final String DEFAULT = "safety-rules/default.yaml";

  private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]*");
  private static final Pattern RELATION =
      Pattern.compile("\\s*([a-z_][a-z0-9_]*)\\s*(<=|>=|<|>|=)\\s*([a-z_][a-z0-9_]*)\\s*");
  private static final Pattern SIZE = Pattern.compile("\\s*(\\d+(?:\\.\\d+)?)\\s*([A-Za-z]+)\\s*");

  private SafetyRulesFile() {}

  public static SafetyRules loadDefault() {
    try (var in = SafetyRulesFile.class.getClassLoader().getResourceAsStream(DEFAULT)) {
      if (in == null) {
        throw new PgknobException(
            "the default safety rules " + DEFAULT + " are missing from the jar",
            "rebuild pgknob, or give a file with --rules");
      }
      return parse(DEFAULT, new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  public static SafetyRules load(Path file) {
    try {
      return parse(file.toString(), Files.readString(file));
    } catch (NoSuchFileException e) {
      throw new PgknobException(
          "safety rules file " + file + " does not exist", "give an existing file");
    } catch (IOException e) {
      throw new PgknobException(
          "cannot read safety rules file " + file + ": " + e.getMessage(), "check its permissions");
    }
  }

  public static SafetyRules parse(String source, String yaml) {
    JsonNode root = YamlErrors.read(source, yaml);
    if (root == null || !root.isObject()) {
      throw new PgknobException(
          source + ": the file must be a mapping with memory, relations and durability",
          "see " + DEFAULT);
    }
    onlyFields(source, "the file", root, Set.of("memory", "relations", "durability", "disk"));
    JsonNode memory = root.path("memory");
    if (!memory.isObject()) {
      throw new PgknobException(
          source + ": the memory section is missing", "add memory: with limit_fraction and terms");
    }
    onlyFields(
        source, "memory", memory, Set.of("limit_fraction", "per_connection_fallback", "terms"));
    double fraction = memory.path("limit_fraction").asDouble(Double.NaN);
    if (!(fraction > 0 && fraction <= 1)) {
      throw new PgknobException(
          source
              + ": memory.limit_fraction must lie in (0, 1], but got "
              + memory.path("limit_fraction").asText("nothing"),
          "e.g. limit_fraction: 0.90");
    }
    long fallback =
        size(
            source,
            "memory.per_connection_fallback",
            memory.path("per_connection_fallback"),
            ConnectionOverhead.FALLBACK_BYTES);
    return new SafetyRules(
        source,
        fraction,
        fallback,
        terms(source, memory.path("terms")),
        relations(source, root.path("relations")),
        durability(source, root.path("durability")),
        disk(source, root.path("disk")));
  }

  private static DiskRule disk(String source, JsonNode disk) {
    if (disk.isMissingNode()) {
      return DiskRule.DEFAULT;
    }
    if (!disk.isObject()) {
      throw new PgknobException(
          source + ": disk must be a mapping",
          "e.g. disk: {wal_limit_fraction: 0.5, reserve: 1GB}");
    }
    onlyFields(source, "disk", disk, Set.of("wal_limit_fraction", "reserve"));
    JsonNode f = disk.path("wal_limit_fraction");
    double fraction =
        f.isMissingNode() ? DiskRule.DEFAULT.walLimitFraction() : f.asDouble(Double.NaN);
    if (!(fraction > 0 && fraction <= 1)) {
      throw new PgknobException(
          source + ": disk.wal_limit_fraction must lie in (0, 1], but got " + f.asText("nothing"),
          "e.g. wal_limit_fraction: 0.5");
    }
    long reserve =
        size(source, "disk.reserve", disk.path("reserve"), DiskRule.DEFAULT.reserveBytes());
    return new DiskRule(fraction, reserve);
  }

  private static List<MemoryTermRule> terms(String source, JsonNode terms) {
    if (!terms.isObject() || terms.isEmpty()) {
      throw new PgknobException(
          source + ": memory.terms must name at least one term",
          "e.g. shared_buffers: [shared_buffers]");
    }
    List<MemoryTermRule> out = new ArrayList<>();
    Iterator<Map.Entry<String, JsonNode>> it = terms.properties().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      String where = source + ": memory term " + e.getKey();
      if (!e.getValue().isArray() || e.getValue().isEmpty()) {
        throw new PgknobException(
            where + " must be a list of factors", "e.g. [max_connections, per_connection]");
      }
      List<String> factors = new ArrayList<>();
      for (JsonNode f : e.getValue()) {
        String text = f.asText().trim();
        if (!f.isNumber() && !NAME.matcher(text).matches()) {
          throw new PgknobException(
              where + ": a factor must be a number or a setting name, but got '" + text + "'",
              "fix the factor");
        }
        factors.add(text);
      }
      out.add(new MemoryTermRule(e.getKey(), factors));
    }
    return out;
  }

  private static List<Relation> relations(String source, JsonNode relations) {
    List<Relation> out = new ArrayList<>();
    if (relations.isMissingNode() || relations.isNull()) {
      return out;
    }
    if (!relations.isArray()) {
      throw new PgknobException(
          source + ": relations must be a list", "e.g. - min_wal_size <= max_wal_size");
    }
    for (JsonNode r : relations) {
      Matcher m = RELATION.matcher(r.asText());
      if (!r.isTextual() || !m.matches()) {
        throw new PgknobException(
            source + ": relation '" + r.asText() + "' must read 'setting <= setting'",
            "use one of <=, <, >=, >, = between two setting names");
      }
      out.add(new Relation(m.group(1), m.group(2), m.group(3)));
    }
    return out;
  }

  private static List<DurabilityRule> durability(String source, JsonNode durability) {
    List<DurabilityRule> out = new ArrayList<>();
    if (durability.isMissingNode() || durability.isNull()) {
      return out;
    }
    if (!durability.isObject()) {
      throw new PgknobException(
          source + ": durability must map settings to rules",
          "e.g. synchronous_commit: {values: [off], needs: durability-tradeoff}");
    }
    Iterator<Map.Entry<String, JsonNode>> it = durability.properties().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      String where = source + ": durability rule " + e.getKey();
      JsonNode n = e.getValue();
      onlyFields(source, "durability rule " + e.getKey(), n, Set.of("values", "needs", "risk"));
      List<String> values = new ArrayList<>();
      n.path("values").forEach(v -> values.add(text(v)));
      if (values.isEmpty()) {
        throw new PgknobException(
            where + " needs the values that weaken durability", "e.g. values: [off]");
      }
      String needs = n.path("needs").asText("");
      DurabilityRule.OptIn optIn = null;
      for (DurabilityRule.OptIn o : DurabilityRule.OptIn.values()) {
        if (o.fileName.equals(needs)) {
          optIn = o;
        }
      }
      if (optIn == null) {
        throw new PgknobException(
            where + ": needs must be durability-tradeoff or unsafe, but got '" + needs + "'",
            "fix needs");
      }
      out.add(new DurabilityRule(e.getKey(), values, optIn, n.path("risk").asText("")));
    }
    return out;
  }

  private static long size(String source, String field, JsonNode n, long fallback) {
    if (n.isMissingNode()) {
      return fallback;
    }
    Matcher m = SIZE.matcher(n.asText());
    PgUnit unit = m.matches() ? PgUnit.parse(m.group(2)).orElse(PgUnit.NONE) : PgUnit.NONE;
    if (!m.matches() || unit.kind() != PgUnit.Kind.MEMORY) {
      throw new PgknobException(
          source + ": " + field + " must be a size such as 10MB, but got '" + n.asText() + "'",
          "write a number and kB, MB or GB");
    }
    return Math.round(unit.bytes(Double.parseDouble(m.group(1))));
  }

  private static void onlyFields(String source, String what, JsonNode n, Set<String> allowed) {
    n.fieldNames()
        .forEachRemaining(
            f -> {
              if (!allowed.contains(f)) {
                throw new PgknobException(
                    source + ": " + what + " has an unknown field '" + f + "'",
                    "allowed fields: " + allowed);
              }
            });
  }

  /** YAML 1.1 reads on/off as booleans; PostgreSQL means the words. */
  private static String text(JsonNode v) {
    if (v.isBoolean()) {
      return v.asBoolean() ? "on" : "off";
    }
    return v.asText().toLowerCase(Locale.ROOT);
  }
}
