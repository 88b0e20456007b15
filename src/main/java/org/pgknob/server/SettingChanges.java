package org.pgknob.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * What one change will do to a server's settings, worked out from {@code pg_settings} before
 * anything is touched: the settings asked for, by the server's spelling; every setting the change
 * writes (those, and each one an earlier change of the same restore file touched, which goes back
 * to its original); which of them differ from what the server runs now; and whether a restart is
 * needed. The controller then checks privileges on {@link #touched}, writes, and reads back {@link
 * #expected}.
 *
 * @param wanted each requested setting, named as pg_settings names it, with its value as given
 * @param expected what pg_settings must show after the change, canonical: the requested values, and
 *     the originals of settings going back whose original can be checked
 * @param touched the settings the change writes: the requested ones, then the earlier ones
 * @param changes the touched settings whose value differs from the server's now
 * @param restart true when one of {@link #changes} takes effect only after a restart
 */
record SettingChanges(
    Map<String, String> wanted,
    Map<String, String> expected,
    Set<String> touched,
    List<SettingChange> changes,
    boolean restart) {

  /**
   * @param now the server's settings by name
   * @param requested the settings asked for: names in any case, values as a user writes them
   * @param touchedBefore the settings earlier changes touched (restore file), empty at first
   * @param originalOf the recorded original of a setting in {@code touchedBefore}
   * @throws SettingRejectedException for an unknown, fixed or out-of-range setting ({@link
   *     SettingCheck#changeable}), before anything is worked out further
   */
  static SettingChanges of(
      Map<String, ServerSetting> now,
      Map<String, String> requested,
      Set<String> touchedBefore,
      Function<String, OriginalSetting> originalOf) {
    Map<String, String> wanted = new LinkedHashMap<>();
    Map<String, String> expected = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : requested.entrySet()) {
      // GUC names are case-insensitive; pg_settings spells a few in mixed case (TimeZone).
      ServerSetting s = SettingCheck.changeable(now, e.getKey().strip(), e.getValue());
      wanted.put(s.name(), e.getValue().strip());
      expected.put(s.name(), SettingValue.canonical(s, e.getValue()));
    }
    Set<String> touched = new LinkedHashSet<>(wanted.keySet());
    touched.addAll(touchedBefore);
    List<SettingChange> changes = new ArrayList<>();
    boolean restart = false;
    for (String name : touched) {
      ServerSetting s = now.get(name);
      if (s == null) {
        continue;
      }
      boolean differs;
      String after;
      if (wanted.containsKey(name)) {
        differs = !SettingValue.sameValue(s, expected.get(name), s.setting());
        after = wanted.get(name);
      } else {
        OriginalSetting original = originalOf.apply(name);
        if (original.verifiable()) {
          expected.put(name, original.setting());
          differs = !SettingValue.sameValue(s, original.setting(), s.setting());
        } else {
          // Back to a built-in default: a change whenever something sets it now.
          differs = !"default".equals(s.source()) || s.pendingRestart();
        }
        after = original.display() + " (original)";
      }
      if (differs) {
        changes.add(new SettingChange(name, s.display(), after, s.needsRestart()));
        restart |= s.needsRestart();
      }
    }
    return new SettingChanges(wanted, expected, touched, changes, restart);
  }

  /** The names of the {@link #changes} that need a restart. */
  List<String> needingRestart() {
    return changes.stream().filter(SettingChange::needsRestart).map(SettingChange::name).toList();
  }
}
