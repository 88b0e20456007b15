package org.pgknob.server;

import java.util.List;

/**
 * One row of {@code pg_settings}: a setting's current value and what the server allows for it.
 *
 * @param name the setting's name (lower case, as pg_settings spells it)
 * @param setting the current value in the setting's base unit, as text
 * @param unit the base unit (e.g. {@code 8kB}, {@code kB}, {@code ms}), or null when unitless
 * @param vartype bool, integer, real, string or enum
 * @param context when a change takes effect: postmaster (restart), sighup, superuser, user, ...
 * @param minVal the least value in the base unit, or null
 * @param maxVal the greatest value in the base unit, or null
 * @param enumvals the allowed values of an enum, else empty
 * @param bootVal the compiled-in default
 * @param resetVal the value a RESET would bring back in a new session
 * @param source where the current value comes from (default, configuration file, ...)
 * @param sourcefile the file that set it, when the reading role may see it, else null
 * @param pendingRestart true when a changed file value waits for a restart
 */
public record ServerSetting(
    String name,
    String setting,
    String unit,
    String vartype,
    String context,
    String minVal,
    String maxVal,
    List<String> enumvals,
    String bootVal,
    String resetVal,
    String source,
    String sourcefile,
    boolean pendingRestart) {

  public ServerSetting {
    enumvals = enumvals == null ? List.of() : List.copyOf(enumvals);
  }

  /** True when a new value takes effect only after a server restart. */
  public boolean needsRestart() {
    return "postmaster".equals(context);
  }

  /** True when the value is fixed at build or initdb time and cannot be changed at all. */
  public boolean isFixed() {
    return "internal".equals(context);
  }

  /** True when a configuration reload applies a new value (to new sessions for backend ones). */
  public boolean appliesOnReload() {
    return !needsRestart() && !isFixed();
  }

  /** The current value as people read it, e.g. {@code 16384 8kB (128MB)}. */
  public String display() {
    return SettingValue.withUnit(this, setting);
  }
}
