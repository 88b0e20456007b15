package org.pgknob.space;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.pgknob.PgknobException;

/**
 * Binds a {@link SearchSpace} to a live server through its {@code pg_settings}: each knob must
 * exist there, have the same type, a unit that converts exactly to the server's, a range within
 * min_val..max_val and enum values among enumvals. Each knob's default becomes the server's
 * boot_val, converted exactly into the knob's unit.
 *
 * <p>Every failure is a one-line {@link PgknobException} naming the file, the knob, what must hold
 * and what was found. Nothing is changed on the server.
 */
public final class ServerSpaceValidator {
  private ServerSpaceValidator() {}

  /** Loads {@code file} for the server's major version and binds it to the server. */
  public static BoundSpace load(Path file, Connection conn) {
    int major = PgSetting.serverMajor(conn);
    return bind(SearchSpaceFile.load(file, major), PgSetting.readAll(conn), major);
  }

  /** Loads the default space for the server's major version and binds it to the server. */
  public static BoundSpace loadDefault(Connection conn) {
    int major = PgSetting.serverMajor(conn);
    return bind(SearchSpaceFile.loadDefault(major), PgSetting.readAll(conn), major);
  }

  /** Binds an already loaded space to the server behind {@code conn}. */
  public static BoundSpace bind(SearchSpace space, Connection conn) {
    return bind(space, PgSetting.readAll(conn), PgSetting.serverMajor(conn));
  }

  /** Binds {@code space} to the given pg_settings rows (by name). */
  public static BoundSpace bind(SearchSpace space, Map<String, PgSetting> settings, int major) {
    List<Knob> bound = new ArrayList<>();
    for (Knob k : space.knobs()) {
      Knob b = bindKnob(space.source(), k, settings.get(k.name()), major);
      bound.add(b.isNumeric() ? withAutomaticValue(b, settings) : b);
    }
    return new BoundSpace(new SearchSpace(space.source(), bound), settings, major);
  }

  private static Knob bindKnob(String source, Knob k, PgSetting s, int major) {
    String where = source + ": knob " + k.name();
    if (s == null) {
      throw new PgknobException(
          where + " is not a setting of this PostgreSQL " + major + " server",
          "check the spelling, remove it, or give it min_version if only newer servers have it");
    }
    if (s.isFixed()) {
      throw new PgknobException(
          where + " cannot be changed (pg_settings.context is " + s.context() + ")",
          "remove it from the space");
    }
    String expected = k.type().name().toLowerCase(Locale.ROOT);
    if (!expected.equals(s.vartype())) {
      throw new PgknobException(
          where
              + ": the type must match the server's, which is "
              + s.vartype()
              + ", but the file says "
              + expected,
          "set type: " + s.vartype());
    }
    if (k.isCategorical()) {
      return bindCategorical(where, k, s);
    }
    PgUnit knobUnit = unit(where, k.unit(), "the file's unit");
    PgUnit serverUnit = unit(where, s.unit(), "the server's unit");
    checkUnit(where, k, knobUnit, serverUnit);
    double lowServer = knobUnit.convert(k.min(), serverUnit);
    double highServer = knobUnit.convert(k.max(), serverUnit);
    if (lowServer < s.minVal() || highServer > s.maxVal()) {
      throw new PgknobException(
          where
              + ": the range must lie within the server's "
              + fmt(s.minVal())
              + " .. "
              + fmt(s.maxVal())
              + (serverUnit.text().isEmpty() ? "" : " (in " + serverUnit.text() + ")")
              + ", but the file gives "
              + fmt(k.min())
              + " .. "
              + fmt(k.max())
              + (knobUnit.text().isEmpty() ? "" : " " + knobUnit.text())
              + " = "
              + fmt(lowServer)
              + " .. "
              + fmt(highServer)
              + (serverUnit.text().isEmpty() ? "" : " " + serverUnit.text()),
          "narrow min and max");
    }
    return k.withDefault(bootValue(where, k, s, serverUnit, knobUnit));
  }

  /**
   * Settings whose default -1 means "take that setting's value": PostgreSQL's own rule, not
   * something the server reports.
   */
  private static final Map<String, String> DERIVED_FROM =
      Map.of(
          "autovacuum_work_mem", "maintenance_work_mem",
          "autovacuum_vacuum_cost_limit", "vacuum_cost_limit",
          "autovacuum_vacuum_cost_delay", "vacuum_cost_delay");

  /**
   * A knob whose default lies outside its range gets the value the server derived for it: its
   * current setting when the server shows the derived number there (wal_buffers), else the value of
   * the setting it follows. Left unknown (null) when neither lies in the range.
   */
  private static Knob withAutomaticValue(Knob k, Map<String, PgSetting> settings) {
    if (!(k.defaultValue() instanceof Number d)
        || (d.doubleValue() >= k.min() && d.doubleValue() <= k.max())) {
      return k;
    }
    for (String name : List.of(k.name(), DERIVED_FROM.getOrDefault(k.name(), ""))) {
      Optional<Double> v = Optional.ofNullable(settings.get(name)).flatMap(s -> inUnit(s, k));
      if (v.isPresent() && v.get() >= k.min() && v.get() <= k.max()) {
        return k.withAutomaticValue(k.normalize(v.get()));
      }
    }
    return k;
  }

  /** A numeric setting's current value in {@code k}'s unit, when both units are known. */
  private static Optional<Double> inUnit(PgSetting s, Knob k) {
    Optional<PgUnit> from = PgUnit.parse(s.unit());
    Optional<PgUnit> to = PgUnit.parse(k.unit());
    if (from.isEmpty() || to.isEmpty() || !from.get().convertsTo(to.get())) {
      return Optional.empty();
    }
    try {
      return Optional.of(from.get().convert(Double.parseDouble(s.setting()), to.get()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static Knob bindCategorical(String where, Knob k, PgSetting s) {
    if (k.type() == KnobType.ENUM) {
      List<String> missing = new ArrayList<>();
      for (String v : k.choices()) {
        if (!s.enumvals().contains(v)) {
          missing.add(v);
        }
      }
      if (!missing.isEmpty()) {
        throw new PgknobException(
            where
                + ": every value must be one the server accepts, but "
                + String.join(", ", missing)
                + (missing.size() == 1 ? " is" : " are")
                + " not among the server's "
                + s.enumvals(),
            "remove " + String.join(", ", missing) + " from its values and grid");
      }
    }
    String boot = s.bootVal().toLowerCase(Locale.ROOT);
    return k.withDefault(boot);
  }

  private static PgUnit unit(String where, String text, String which) {
    return PgUnit.parse(text)
        .orElseThrow(
            () ->
                new PgknobException(
                    where + ": " + which + " '" + text + "' is not a PostgreSQL unit",
                    "use one of B, kB, MB, GB, TB, 8kB, us, ms, s, min, h, d, or none"));
  }

  private static void checkUnit(String where, Knob k, PgUnit knobUnit, PgUnit serverUnit) {
    if (!knobUnit.convertsTo(serverUnit)) {
      throw new PgknobException(
          where
              + ": the unit must convert to the server's unit "
              + serverUnit.display()
              + ", but the file says "
              + knobUnit.display(),
          serverUnit.kind() == PgUnit.Kind.NONE
              ? "remove unit: (this setting has none)"
              : "set unit: to a " + serverUnit.kind().name().toLowerCase(Locale.ROOT) + " unit");
    }
    // Values in a unit like 8kB are written as bare numbers, which the server reads in its own
    // unit: the two must be the same.
    if (knobUnit.isMultiple() && knobUnit.base() != serverUnit.base()) {
      throw new PgknobException(
          where
              + ": a unit with a multiplier must be the server's own unit "
              + serverUnit.display()
              + ", but the file says "
              + knobUnit.display(),
          "use a plain unit such as kB or MB");
    }
    // An integer in a unit finer than the server's would be rounded by the server: the
    // optimizer's value and the server's would differ.
    if (k.type() == KnobType.INTEGER && !knobUnit.isWholeMultipleOf(serverUnit)) {
      throw new PgknobException(
          where
              + ": an integer knob's unit must be a whole multiple of the server's unit "
              + serverUnit.display()
              + ", but the file says "
              + knobUnit.display()
              + " (the server would round the values)",
          "use " + serverUnit.display() + " or a coarser unit");
    }
  }

  /**
   * The server's boot value in the knob's unit. Non-positive values are special (-1 = derived from
   * another setting, 0 = off) and are kept as they are, even outside the knob's range.
   */
  private static Object bootValue(
      String where, Knob k, PgSetting s, PgUnit serverUnit, PgUnit knobUnit) {
    if (k.type() == KnobType.REAL) {
      double boot = Double.parseDouble(s.bootVal());
      return boot <= 0 ? boot : serverUnit.convert(boot, knobUnit);
    }
    long boot = Long.parseLong(s.bootVal());
    if (boot <= 0) {
      return boot;
    }
    Optional<Long> converted = serverUnit.convertExactly(boot, knobUnit);
    if (converted.isEmpty()) {
      throw new PgknobException(
          where
              + ": the server's default must be a whole number in the knob's unit, but it is "
              + boot
              + (serverUnit.text().isEmpty() ? "" : " " + serverUnit.text())
              + " = "
              + fmt(serverUnit.convert(boot, knobUnit))
              + " "
              + knobUnit.display(),
          "use a finer unit for this knob");
    }
    return converted.get();
  }

  static String fmt(double d) {
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return Double.toString(d);
  }
}
