package org.pgknob.server;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a setting and its value the way {@link Target#configure} does before it changes anything
 * (the name exists and may be changed, the type, unit and range hold), for commands that must
 * refuse a bad value before they start rather than at a trial: {@code compare --config}.
 */
public final class SettingCheck {
  /** Where a setting's value beats ALTER SYSTEM's, so a change through it would not show. */
  private static final Set<String> OVERRIDING_SOURCES =
      Set.of("command line", "environment variable", "database", "user", "database user");

  private SettingCheck() {}

  /**
   * The value as pg_settings shows it (numbers in the setting's base unit, booleans as on/off).
   *
   * @throws SettingRejectedException naming the setting, what must hold and what was given
   */
  public static String check(List<ServerSetting> server, String name, String value) {
    Map<String, ServerSetting> byName = new LinkedHashMap<>();
    server.forEach(s -> byName.put(s.name(), s));
    ServerSetting s = changeable(byName, name.strip(), value);
    return SettingValue.canonical(s, value);
  }

  /**
   * The server's setting named {@code givenName} (in any case), when pgknob may give it {@code
   * value}: it exists, is not fixed, protected or overridden by a source ALTER SYSTEM cannot beat,
   * and PostgreSQL would take the value.
   *
   * @throws SettingRejectedException naming the cause and the fix; nothing was changed
   */
  static ServerSetting changeable(Map<String, ServerSetting> now, String givenName, String value) {
    String name = givenName.toLowerCase(Locale.ROOT);
    ServerSetting s =
        now.values().stream().filter(x -> x.name().equalsIgnoreCase(name)).findFirst().orElse(null);
    if (s == null) {
      List<String> near =
          now.keySet().stream()
              .filter(n -> n.contains(name) || name.contains(n) || n.startsWith(name.split("_")[0]))
              .limit(4)
              .toList();
      throw invalid(
          name,
          value,
          "unknown setting '" + name + "': this server's pg_settings has no such name",
          near.isEmpty() ? "check the spelling" : "did you mean " + String.join(", ", near) + "?");
    }
    if (s.isFixed()) {
      throw invalid(
          name,
          value,
          name + " cannot be changed: it is fixed when PostgreSQL is built or initialized",
          "leave it out");
    }
    Optional<String> protectedReason = ProtectedSettings.reason(s.name());
    if (protectedReason.isPresent()) {
      throw invalid(
          s.name(),
          value,
          "pgknob never changes " + s.name() + ": " + protectedReason.get(),
          "leave it out (change it yourself in postgresql.conf if you must)");
    }
    if (OVERRIDING_SOURCES.contains(s.source())) {
      throw invalid(
          name,
          value,
          name + " is set by the server's " + s.source() + ", which overrides ALTER SYSTEM",
          "remove that setting first (ALTER ROLE/DATABASE ... RESET "
              + name
              + ", or the -c option)");
    }
    String canonical = SettingValue.canonical(s, value); // throws when PostgreSQL would refuse it
    Optional<String> valueReason = ProtectedSettings.valueReason(s, canonical);
    if (valueReason.isPresent()) {
      throw invalid(s.name(), value, valueReason.get(), "give another value");
    }
    return s;
  }

  private static SettingRejectedException invalid(
      String name, String value, String cause, String fix) {
    return new SettingRejectedException(
        SettingRejectedException.Reason.INVALID,
        Map.of(name, value),
        cause,
        "",
        fix + "; nothing was changed");
  }
}
