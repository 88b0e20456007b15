package org.pgknob.session;

import java.util.LinkedHashMap;
import java.util.Map;
import org.pgknob.server.SettingValue;
import org.pgknob.space.PgSetting;

/**
 * Which settings of a configuration change something on the server: a value the server runs already
 * (checkpoint_completion_target 0.9 on PostgreSQL 14+, 131072kB for a shared_buffers of 128MB) is
 * no change, so it is neither counted in "changed N", exported, nor shown as a change.
 */
final class ServerChanges {
  private ServerChanges() {}

  /** The entries of {@code settings} whose value differs from what {@code server} runs. */
  static Map<String, String> only(Map<String, String> settings, Map<String, PgSetting> server) {
    Map<String, String> out = new LinkedHashMap<>(settings);
    out.entrySet()
        .removeIf(
            e -> {
              PgSetting found = server.get(e.getKey());
              return found != null
                  && SettingValue.same(
                      SettingValue.withUnit(found.setting(), found.unit()), e.getValue());
            });
    return out;
  }
}
