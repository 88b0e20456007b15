package org.pgknob.server;

import java.util.List;

/**
 * What a {@link Target#configure} or a restore did.
 *
 * @param changes the settings whose value changed (settings asked for with their current value are
 *     not listed)
 * @param reloaded true when the configuration was reloaded
 * @param restarted true when the server was restarted
 * @param seconds wall time taken, including any restart and the read-back check
 */
public record ApplyReport(
    List<SettingChange> changes, boolean reloaded, boolean restarted, double seconds) {
  public ApplyReport {
    changes = List.copyOf(changes);
  }

  public static ApplyReport nothing() {
    return new ApplyReport(List.of(), false, false, 0);
  }
}
