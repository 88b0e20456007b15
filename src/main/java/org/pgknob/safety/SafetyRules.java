package org.pgknob.safety;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.pgknob.PgknobException;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.PgSetting;
import org.pgknob.space.PgUnit;
import org.pgknob.space.SearchSpace;

/**
 * The known constraints every configuration must pass before anything is applied: its predicted
 * memory within a fraction of RAM, relations between settings, and durability values only with the
 * user's opt-in. Loaded by {@link SafetyRulesFile}; immutable.
 *
 * <p>The memory model is a sum of terms, each a product of settings, numbers, the workload's active
 * connections and the measured memory of one connection (see safety-rules/default.yaml). It is
 * deliberately pessimistic: it is the worst case a configuration allows, not what a trial will use;
 * the {@code Guardrail} watches what it really uses.
 */
public final class SafetyRules {
  private final String source;
  private final double limitFraction;
  private final long perConnectionFallbackBytes;
  private final List<MemoryTermRule> terms;
  private final List<Relation> relations;
  private final List<DurabilityRule> durability;
  private final DiskRule disk;

  SafetyRules(
      String source,
      double limitFraction,
      long perConnectionFallbackBytes,
      List<MemoryTermRule> terms,
      List<Relation> relations,
      List<DurabilityRule> durability,
      DiskRule disk) {
    this.source = source;
    this.limitFraction = limitFraction;
    this.perConnectionFallbackBytes = perConnectionFallbackBytes;
    this.terms = List.copyOf(terms);
    this.relations = List.copyOf(relations);
    this.durability = List.copyOf(durability);
    this.disk = disk;
  }

  /** The most WAL a configuration may let the server keep in {@code room}. */
  public long walLimitBytes(WalRoom room) {
    return disk.walLimitBytes(room);
  }

  /**
   * The most WAL a configuration may let this server keep in {@code room}: the disk's limit, or
   * what the server kept as found when that is more (the rules never refuse the server's own).
   */
  public long walAllowedBytes(WalRoom room, Map<String, PgSetting> serverSettings) {
    return Math.max(disk.walLimitBytes(room), walKeptBytes(serverSettings));
  }

  /** The share of the WAL disk's room a configuration's WAL may claim, e.g. 0.5. */
  public double walLimitFraction() {
    return disk.walLimitFraction();
  }

  /** The free space the disk guardrail keeps on the server's data and WAL disks. */
  public long diskReserveBytes() {
    return disk.reserveBytes();
  }

  public String source() {
    return source;
  }

  /** The share of RAM a configuration may use, e.g. 0.90. */
  public double limitFraction() {
    return limitFraction;
  }

  /** The memory of one connection to assume when it was not measured. */
  public long perConnectionFallbackBytes() {
    return perConnectionFallbackBytes;
  }

  /** The memory limit for {@code ram}: limit fraction x RAM. */
  public long limitBytes(RamLimit ram) {
    return (long) Math.floor(limitFraction * ram.bytes());
  }

  /**
   * Checks that every setting the rules name exists on the server.
   *
   * @throws PgknobException naming the file, the rule and the unknown setting
   */
  public void validateAgainst(Map<String, PgSetting> serverSettings) {
    for (MemoryTermRule t : terms) {
      for (String s : t.settings()) {
        requireSetting(serverSettings, "memory term " + t.name(), s);
      }
    }
    for (Relation r : relations) {
      requireSetting(serverSettings, "relation '" + r + "'", r.left());
      requireSetting(serverSettings, "relation '" + r + "'", r.right());
    }
    for (DurabilityRule d : durability) {
      requireSetting(serverSettings, "durability rule " + d.knob(), d.knob());
    }
  }

  private void requireSetting(Map<String, PgSetting> server, String rule, String name) {
    if (!server.containsKey(name)) {
      throw new PgknobException(
          source + ": " + rule + " names " + name + ", which is not a setting of this server",
          "fix the name, or use "
              + MemoryTermRule.ACTIVE_CONNECTIONS
              + " or "
              + MemoryTermRule.PER_CONNECTION
              + " in memory terms");
    }
  }

  /** {@link #restrictSpace(SearchSpace, boolean, boolean)} without --allow-unsafe. */
  public SearchSpace restrictSpace(SearchSpace space, boolean allowDurabilityTradeoff) {
    return restrictSpace(space, allowDurabilityTradeoff, false);
  }

  /**
   * The space without the durability values the user did not opt into: those values are removed
   * from their knob's choices and grid, and a knob left with one choice is removed, so the
   * optimizer never proposes them.
   */
  public SearchSpace restrictSpace(
      SearchSpace space, boolean allowDurabilityTradeoff, boolean allowUnsafe) {
    List<Knob> kept = new ArrayList<>();
    for (Knob k : space.knobs()) {
      Knob narrowed = k;
      for (DurabilityRule d : durability) {
        if (d.knob().equals(k.name())
            && k.isCategorical()
            && !d.allowed(allowDurabilityTradeoff, allowUnsafe)) {
          narrowed = without(narrowed, d.values());
        }
      }
      if (narrowed.isNumeric() || narrowed.choices().size() > 1) {
        kept.add(narrowed);
      }
    }
    return new SearchSpace(space.source(), kept);
  }

  private static Knob without(Knob k, List<String> values) {
    List<String> choices = k.choices().stream().filter(c -> !values.contains(c)).toList();
    List<Object> grid = k.grid().stream().filter(g -> !values.contains(g.toString())).toList();
    return new Knob(
        k.name(),
        k.type(),
        k.min(),
        k.max(),
        k.scale(),
        k.unit(),
        choices,
        grid,
        k.condition(),
        k.defaultValue(),
        k.note());
  }

  /**
   * What {@code knob = value} gives up, when a durability rule holds that value back ("the last
   * commits before a crash may be lost, the database stays consistent; pgknob sets it only with
   * --allow-durability-tradeoff"), for the exports and the verdict of a pick that sets it.
   */
  public Optional<String> durabilityRisk(String knob, String value) {
    for (DurabilityRule d : durability) {
      if (d.holds(knob, value)) {
        // "allowed by" read as if the user had given the flag, where a compared file set it
        return Optional.of(d.risk() + "; pgknob sets it only with " + d.needs().flag);
      }
    }
    return Optional.empty();
  }

  /**
   * The settings of {@code settings} that a durability rule holds back and the user did not opt
   * into, each as "fsync=off (a crash or power loss may corrupt the cluster; needs
   * --allow-unsafe)"; empty when none.
   */
  public List<String> heldBack(
      Map<String, String> settings, boolean allowDurabilityTradeoff, boolean allowUnsafe) {
    List<String> out = new ArrayList<>();
    settings.forEach(
        (knob, value) -> {
          for (DurabilityRule d : durability) {
            if (d.holds(knob, value) && !d.allowed(allowDurabilityTradeoff, allowUnsafe)) {
              out.add(
                  knob.strip()
                      + "="
                      + value.strip()
                      + " ("
                      + d.risk()
                      + "; needs "
                      + d.needs().flag
                      + ")");
            }
          }
        });
    return out;
  }

  /**
   * The flag that lets apply and tune set {@code settings}' durability values: --allow-unsafe when
   * one needs it (it includes the other), else --allow-durability-tradeoff when one needs that,
   * else empty.
   */
  public Optional<String> optInFor(Map<String, String> settings) {
    DurabilityRule.OptIn strongest = null;
    for (var e : settings.entrySet()) {
      for (DurabilityRule d : durability) {
        if (d.holds(e.getKey(), e.getValue())) {
          if (strongest == null || d.needs() == DurabilityRule.OptIn.UNSAFE) {
            strongest = d.needs();
          }
        }
      }
    }
    return Optional.ofNullable(strongest).map(o -> o.flag);
  }

  /** The durability knobs and values {@link #restrictSpace} removes, for people. */
  public List<String> restrictions(boolean allowDurabilityTradeoff, boolean allowUnsafe) {
    List<String> out = new ArrayList<>();
    for (DurabilityRule d : durability) {
      if (!d.allowed(allowDurabilityTradeoff, allowUnsafe)) {
        out.add(d.knob() + "=" + String.join("|", d.values()) + " needs " + d.needs().flag);
      }
    }
    return out;
  }

  /** The predicted memory of the server with {@code config}: the model's terms. */
  public List<MemoryTerm> predictMemory(Configuration config, SafetyContext context) {
    SettingValues values = new SettingValues(config, context.space(), context.serverSettings());
    List<MemoryTerm> out = new ArrayList<>();
    for (MemoryTermRule t : terms) {
      double bytes = 1;
      List<String> shown = new ArrayList<>();
      for (String f : t.factors()) {
        double v;
        if (f.equals(MemoryTermRule.ACTIVE_CONNECTIONS)) {
          v = context.activeConnections();
        } else if (f.equals(MemoryTermRule.PER_CONNECTION)) {
          v = context.perConnectionBytes();
        } else if (MemoryTermRule.isNumber(f)) {
          v = Double.parseDouble(f);
        } else {
          v = values.number(f);
        }
        bytes *= v;
        shown.add(MemoryTermRule.isNumber(f) ? f : f + "=" + show(f, v, context));
      }
      out.add(new MemoryTerm(t.name(), Math.round(bytes), String.join(" x ", shown)));
    }
    return out;
  }

  private static String show(String factor, double v, SafetyContext context) {
    boolean memory =
        factor.equals(MemoryTermRule.PER_CONNECTION)
            || (context.serverSettings().containsKey(factor)
                && isMemory(context.serverSettings().get(factor)));
    if (memory) {
      return PgUnit.readableBytes(v);
    }
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.3g", v);
  }

  private static boolean isMemory(PgSetting s) {
    return org.pgknob.space.PgUnit.parse(s.unit())
        .map(u -> u.kind() == org.pgknob.space.PgUnit.Kind.MEMORY)
        .orElse(false);
  }

  /**
   * Judges {@code config} without touching the server: values inside the space and their conditions
   * holding, durability values only with the opt-in, relations holding, predicted memory within the
   * limit.
   */
  public Verdict check(Configuration config, SafetyContext context) {
    validateAgainst(context.serverSettings());
    SearchSpace space = context.space();
    List<String> reasons = new ArrayList<>();
    for (var e : config.values().entrySet()) {
      String name = e.getKey();
      if (!space.contains(name)) {
        reasons.add(name + " is not a knob of the search space");
      } else if (!space.knob(name).admits(e.getValue())) {
        reasons.add(name + "=" + e.getValue() + " lies outside the search space");
      } else if (!space.isActive(name, config)) {
        reasons.add(
            name + " is set, but its condition " + space.knob(name).condition() + " does not hold");
      }
    }
    for (DurabilityRule d : durability) {
      Object v = config.get(d.knob());
      if (v != null
          && d.matches(v.toString())
          && !d.allowed(context.allowDurabilityTradeoff(), context.allowUnsafe())) {
        reasons.add(
            d.knob()
                + "="
                + v
                + " needs "
                + d.needs().flag
                + (d.risk().isEmpty() ? "" : " (" + d.risk() + ")"));
      }
    }
    SettingValues values = new SettingValues(config, space, context.serverSettings());
    for (Relation r : relations) {
      double l = values.number(r.left());
      double rv = values.number(r.right());
      if (!r.holds(l, rv)) {
        reasons.add(
            "relation '"
                + r
                + "' does not hold: "
                + r.left()
                + "="
                + show(r.left(), l, context)
                + ", "
                + r.right()
                + "="
                + show(r.right(), rv, context));
      }
    }
    List<MemoryTerm> memory = predictMemory(config, context);
    long predicted = memory.stream().mapToLong(MemoryTerm::bytes).sum();
    long limit = limitBytes(context.ram());
    if (predicted > limit) {
      reasons.add(
          "predicted memory "
              + PgUnit.readableBytes(predicted)
              + " exceeds the limit "
              + PgUnit.readableBytes(limit)
              + " ("
              + limitFraction
              + " x RAM "
              + context.ram()
              + "): "
              + String.join(", ", memory.stream().map(MemoryTerm::toString).toList()));
    }
    walRisk(values, context.serverSettings(), context.walRoom()).ifPresent(reasons::add);
    return new Verdict(reasons.isEmpty(), predicted, limit, memory, reasons);
  }

  /**
   * Why the WAL {@code values} let the server keep does not fit on its disk; empty when it fits,
   * when the disk is unknown, or when the server already ran with as much before the session (the
   * rules do not refuse what the server was found with).
   */
  private Optional<String> walRisk(
      SettingValues values, Map<String, PgSetting> asFound, WalRoom room) {
    if (room == null || !room.known() || !asFound.containsKey("max_wal_size")) {
      return Optional.empty();
    }
    long predicted = predictWal(values);
    long limit = walAllowedBytes(room, asFound);
    if (predicted <= limit) {
      return Optional.empty();
    }
    return Optional.of(
        "the WAL it may keep, "
            + PgUnit.readableBytes(predicted)
            + " (max_wal_size"
            + (asFound.containsKey("wal_keep_size") ? " + wal_keep_size" : "")
            + "), exceeds the disk limit "
            + PgUnit.readableBytes(limit)
            + " ("
            + (limit > disk.walLimitBytes(room)
                ? "the WAL the server kept as found, more than its disk's share of the "
                : disk.walLimitFraction() + " x the WAL disk's ")
            + PgUnit.readableBytes(room.bytes())
            + " of free space and WAL at the start, "
            + room.where()
            + ")");
  }

  /**
   * Why the WAL {@code settings} let the server keep does not fit on its disk, as {@link #check}
   * says it of a proposal; for a configuration measured as given (PGTune-style, whose settings lie
   * outside the search space), so that what recommends it says what the session's own proposals may
   * not do. Empty when it fits, when the disk is unknown, or when a WAL setting's value is not a
   * size.
   *
   * @param settings name to value as PostgreSQL takes it (max_wal_size = 8GB, or 8192 in MB)
   */
  public Optional<String> walRisk(Map<String, String> settings, SafetyContext context) {
    return walRisk(settings, context.serverSettings(), context.walRoom());
  }

  /**
   * As {@link #walRisk(Map, SafetyContext)}, outside a session: for settings about to be applied to
   * a server found with {@code asFound}, whose WAL disk has {@code room}.
   *
   * @param asFound pg_settings by name, read before the change: the limit never refuses these
   */
  public Optional<String> walRisk(
      Map<String, String> settings, Map<String, PgSetting> asFound, WalRoom room) {
    Map<String, PgSetting> inForce = new LinkedHashMap<>(asFound);
    Map<String, String> given = new TreeMap<>(String.CASE_INSENSITIVE_ORDER); // as PostgreSQL
    given.putAll(settings);
    for (String name : List.of("max_wal_size", "min_wal_size", "wal_keep_size")) {
      PgSetting s = inForce.get(name);
      String value = given.get(name);
      if (s == null || value == null) {
        continue;
      }
      PgUnit unit = PgUnit.parse(s.unit()).orElse(PgUnit.NONE);
      Optional<BigDecimal> number = PgUnit.Quantity.parse(value.trim()).flatMap(q -> q.in(unit));
      if (number.isEmpty()) {
        return Optional.empty();
      }
      inForce.put(name, s.withSetting(number.get().toPlainString()));
    }
    return walRisk(
        new SettingValues(Configuration.empty(), new SearchSpace("as given", List.of()), inForce),
        asFound,
        room);
  }

  /**
   * The WAL the server keeps with its settings as found: max_wal_size plus wal_keep_size (0 for a
   * server without max_wal_size, which the rules then leave alone).
   */
  public long walKeptBytes(Map<String, PgSetting> serverSettings) {
    if (!serverSettings.containsKey("max_wal_size")) {
      return 0;
    }
    return predictWal(
        new SettingValues(
            Configuration.empty(), new SearchSpace("as found", List.of()), serverSettings));
  }

  /** The WAL a server keeps at most in normal running: max_wal_size plus wal_keep_size. */
  private static long predictWal(SettingValues values) {
    double max = Math.max(values.number("max_wal_size"), numberOrZero(values, "min_wal_size"));
    return (long) (max + numberOrZero(values, "wal_keep_size"));
  }

  private static double numberOrZero(SettingValues values, String name) {
    return values.has(name) ? values.number(name) : 0;
  }

  /** The rules as the optimizer's known-constraint filter: true for an accepted configuration. */
  public Predicate<Configuration> asPredicate(SafetyContext context) {
    return config -> check(config, context).accepted();
  }
}
