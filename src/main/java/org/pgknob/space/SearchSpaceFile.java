package org.pgknob.space;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.pgknob.PgknobException;

/**
 * Reads a search-space YAML file. Checks what the file alone can tell (types, bounds, log scales,
 * grids, conditions); checks against a live server are {@code ServerSpaceValidator}'s.
 *
 * <pre>
 * knobs:
 *   shared_buffers: {type: integer, unit: MB, min: 64, max: 8192, scale: log, grid: [128, 1024]}
 *   io_method:      {type: enum, values: [worker, sync]}
 *   io_workers:     {type: integer, min: 1, max: 16, when: {io_method: worker}}
 *   jit:            {type: bool}
 *   random_page_cost: {type: real, min: 1.0, max: 4.0, default: 4.0}
 * </pre>
 */
public final class SearchSpaceFile {
  private static final Set<String> FIELDS =
      Set.of(
          "type",
          "unit",
          "min",
          "max",
          "scale",
          "values",
          "grid",
          "when",
          "default",
          "note",
          "min_version",
          "sweep");

  /** The default space, shipped in the jar (and at the top of the source tree). */
  public static final String DEFAULT = "search-spaces/postgresql-18.yaml";

  private SearchSpaceFile() {}

  /** The default space for PostgreSQL {@code serverMajor}. */
  public static SearchSpace loadDefault(int serverMajor) {
    try (var in = SearchSpaceFile.class.getClassLoader().getResourceAsStream(DEFAULT)) {
      if (in == null) {
        throw new PgknobException(
            "the default search space " + DEFAULT + " is missing from the jar",
            "rebuild pgknob, or give a file with --space");
      }
      return parse(
          DEFAULT,
          new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8),
          serverMajor);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  public static SearchSpace load(Path file) {
    return load(file, Integer.MAX_VALUE);
  }

  /**
   * Loads the knobs of {@code file} that apply to PostgreSQL {@code serverMajor} (knobs with a
   * higher {@code min_version} are left out).
   */
  public static SearchSpace load(Path file, int serverMajor) {
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new PgknobException(
          "search space file " + file + " does not exist", "give an existing file with --space");
    } catch (IOException e) {
      throw new PgknobException(
          "cannot read search space file " + file + ": " + e.getMessage(), "check its permissions");
    }
    return parse(file.toString(), text, serverMajor);
  }

  public static SearchSpace parse(String source, String yaml, int serverMajor) {
    JsonNode root = YamlErrors.read(source, yaml);
    if (root == null || !root.path("knobs").isObject() || root.path("knobs").isEmpty()) {
      throw new PgknobException(
          source + ": the file has no knobs", "list them under a top-level 'knobs:' mapping");
    }
    List<Knob> knobs = new ArrayList<>();
    Iterator<Map.Entry<String, JsonNode>> it = root.path("knobs").properties().iterator();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      if (e.getValue().path("min_version").asInt(0) > serverMajor) {
        continue;
      }
      knobs.add(
          knob(source, e.getKey(), e.getValue())
              .withSweepRank(sweepRank(source + ": knob " + e.getKey(), e.getValue())));
    }
    checkSweepRanks(source, knobs);
    SearchSpace space = new SearchSpace(source, knobs);
    for (Knob k : knobs) {
      if (k.condition() != null) {
        checkCondition(source, space, k);
      }
    }
    return space;
  }

  private static Knob knob(String source, String name, JsonNode n) {
    String where = source + ": knob " + name;
    if (!n.isObject()) {
      throw new PgknobException(where + " must be a mapping", "give type, min, max, ...");
    }
    n.fieldNames()
        .forEachRemaining(
            f -> {
              if (!FIELDS.contains(f)) {
                throw new PgknobException(
                    where + " has an unknown field '" + f + "'", "allowed fields: " + FIELDS);
              }
            });
    String typeText = n.path("type").asText("");
    KnobType type;
    try {
      type = KnobType.valueOf(typeText.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException ex) {
      throw new PgknobException(
          where + ": type must be integer, real, enum or bool, but got '" + typeText + "'",
          "set its type");
    }
    String unit = n.path("unit").asText("");
    Condition condition = condition(where, n.path("when"));
    String note = n.path("note").asText("");
    if (type == KnobType.ENUM || type == KnobType.BOOL) {
      List<String> choices = new ArrayList<>();
      if (type == KnobType.BOOL) {
        choices.addAll(List.of("on", "off"));
      } else {
        if (!n.path("values").isArray() || n.path("values").isEmpty()) {
          throw new PgknobException(
              where + ": an enum needs a list of values", "add values: [...]");
        }
        n.path("values").forEach(v -> choices.add(text(v)));
      }
      List<Object> grid = new ArrayList<>();
      n.path("grid").forEach(v -> grid.add(text(v)));
      for (Object g : grid) {
        if (!choices.contains(g)) {
          throw new PgknobException(
              where + ": grid value " + g + " is not among its values " + choices,
              "remove it from the grid");
        }
      }
      Object def = n.has("default") ? text(n.get("default")) : null;
      if (def != null && !choices.contains(def)) {
        throw new PgknobException(
            where + ": default " + def + " is not among its values " + choices, "fix the default");
      }
      return new Knob(name, type, 0, 0, Scale.LINEAR, unit, choices, grid, condition, def, note);
    }
    if (!n.path("min").isNumber() || !n.path("max").isNumber()) {
      throw new PgknobException(
          where + ": a numeric knob needs numeric min and max", "add min: and max: in its unit");
    }
    double min = n.path("min").asDouble();
    double max = n.path("max").asDouble();
    if (!(min < max)) {
      throw new PgknobException(
          where + ": min < max must hold, but got (min=" + fmt(min) + ", max=" + fmt(max) + ")",
          "swap or widen the bounds");
    }
    if (type == KnobType.INTEGER && (min != Math.rint(min) || max != Math.rint(max))) {
      throw new PgknobException(
          where
              + ": an integer knob needs whole bounds, but got (min="
              + min
              + ", max="
              + max
              + ")",
          "use whole numbers or type: real");
    }
    Scale scale;
    try {
      scale = Scale.valueOf(n.path("scale").asText("linear").toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException ex) {
      throw new PgknobException(
          where + ": scale must be linear or log, but got '" + n.path("scale").asText() + "'",
          "fix the scale");
    }
    if (scale == Scale.LOG && min <= 0) {
      throw new PgknobException(
          where + ": a log scale needs min > 0, but got min=" + fmt(min),
          "raise min above 0 or use scale: linear");
    }
    List<Object> grid = new ArrayList<>();
    for (JsonNode g : n.path("grid")) {
      if (!g.isNumber() || g.asDouble() < min || g.asDouble() > max) {
        throw new PgknobException(
            where
                + ": grid value "
                + g.asText()
                + " lies outside ["
                + fmt(min)
                + ", "
                + fmt(max)
                + "]",
            "remove it from the grid or widen the range");
      }
      grid.add(type == KnobType.INTEGER ? (Object) g.asLong() : (Object) g.asDouble());
    }
    Object def = null;
    if (n.has("default")) {
      def =
          type == KnobType.INTEGER
              ? (Object) n.get("default").asLong()
              : (Object) n.get("default").asDouble();
    }
    return new Knob(name, type, min, max, scale, unit, List.of(), grid, condition, def, note);
  }

  /** The {@code sweep:} rank: a whole number from 1, or 0 when absent. */
  private static int sweepRank(String where, JsonNode n) {
    JsonNode rank = n.path("sweep");
    if (rank.isMissingNode() || rank.isNull()) {
      return 0;
    }
    if (!rank.canConvertToInt() || !rank.isIntegralNumber() || rank.asInt() < 1) {
      throw new PgknobException(
          where
              + ": sweep must be a whole number from 1 (the knob's place in the sweeps), but got "
              + rank,
          "write sweep: 1 for the first knob to sweep, or leave it out");
    }
    return rank.asInt();
  }

  private static void checkSweepRanks(String source, List<Knob> knobs) {
    Map<Integer, String> byRank = new java.util.HashMap<>();
    for (Knob k : knobs) {
      if (k.sweepRank() > 0) {
        String other = byRank.putIfAbsent(k.sweepRank(), k.name());
        if (other != null) {
          throw new PgknobException(
              source
                  + ": knobs "
                  + other
                  + " and "
                  + k.name()
                  + " share sweep rank "
                  + k.sweepRank(),
              "give each swept knob its own rank");
        }
      }
    }
  }

  private static Condition condition(String where, JsonNode when) {
    if (when.isMissingNode() || when.isNull()) {
      return null;
    }
    if (!when.isObject() || when.size() != 1) {
      throw new PgknobException(
          where + ": 'when' must name one knob and its value(s), e.g. {io_method: worker}",
          "fix the condition");
    }
    Map.Entry<String, JsonNode> e = when.properties().iterator().next();
    List<String> values = new ArrayList<>();
    if (e.getValue().isArray()) {
      e.getValue().forEach(v -> values.add(text(v)));
    } else {
      values.add(text(e.getValue()));
    }
    return new Condition(e.getKey(), values);
  }

  private static void checkCondition(String source, SearchSpace space, Knob k) {
    Condition c = k.condition();
    if (!space.contains(c.knob())) {
      throw new PgknobException(
          source + ": knob " + k.name() + " depends on " + c.knob() + ", which is not in the space",
          "add " + c.knob() + " or remove the condition");
    }
    Knob parent = space.knob(c.knob());
    if (parent.isNumeric()) {
      throw new PgknobException(
          source + ": knob " + k.name() + " depends on numeric knob " + c.knob(),
          "conditions may only name enum or bool knobs");
    }
    for (String v : c.values()) {
      if (!parent.choices().contains(v)) {
        throw new PgknobException(
            source
                + ": knob "
                + k.name()
                + " depends on "
                + c.knob()
                + " = "
                + v
                + ", which is not among its values "
                + parent.choices(),
            "fix the condition");
      }
    }
  }

  /** YAML 1.1 reads on/off/yes/no as booleans; PostgreSQL means the words. */
  private static String text(JsonNode v) {
    if (v.isBoolean()) {
      return v.asBoolean() ? "on" : "off";
    }
    return v.asText().toLowerCase(Locale.ROOT);
  }

  private static String fmt(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
