package org.pgknob.server;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The original state of every setting pgknob has touched on a server, recorded before the first
 * change of each, and postgresql.auto.conf as it was before pgknob's first change.
 *
 * @param originalAutoConf the content of postgresql.auto.conf before the first change, or null when
 *     pgknob could not read it
 * @param autoConfSource how pgknob learned which settings postgresql.auto.conf held: {@code file},
 *     {@code pg_read_file}, {@code pg_file_settings}, or {@code pg_settings} (from sourcefile)
 * @param originals the touched settings as they were, in the order first touched
 */
public record SettingsSnapshot(
    String originalAutoConf, String autoConfSource, List<OriginalSetting> originals) {

  public SettingsSnapshot {
    originals = originals == null ? List.of() : List.copyOf(originals);
  }

  public static SettingsSnapshot empty() {
    return new SettingsSnapshot(null, null, List.of());
  }

  public Optional<OriginalSetting> original(String name) {
    return originals.stream().filter(o -> o.name().equals(name)).findFirst();
  }

  /** This snapshot plus settings not recorded yet; an original already recorded is kept. */
  public SettingsSnapshot with(List<OriginalSetting> more) {
    Map<String, OriginalSetting> byName = new LinkedHashMap<>();
    originals.forEach(o -> byName.put(o.name(), o));
    more.forEach(o -> byName.putIfAbsent(o.name(), o));
    return new SettingsSnapshot(originalAutoConf, autoConfSource, new ArrayList<>(byName.values()));
  }
}
