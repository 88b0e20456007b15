package org.pgknob.server;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a setting and its value the way {@link Target#configure} does before it changes anything
 * (the name exists and may be changed, the type, unit and range hold), for commands that must
 * refuse a bad value before they start rather than at a trial: {@code compare --config}.
 */
public final class SettingCheck {
  private SettingCheck() {}

  /**
   * The value as pg_settings shows it (numbers in the setting's base unit, booleans as on/off).
   *
   * @throws SettingRejectedException naming the setting, what must hold and what was given
   */
  public static String check(List<ServerSetting> server, String name, String value) {
    Map<String, ServerSetting> byName = new LinkedHashMap<>();
    server.forEach(s -> byName.put(s.name(), s));
    ServerSetting s = SettingsController.checkChangeable(byName, name.strip(), value);
    return SettingValue.canonical(s, value);
  }
}
