package org.pgknob.cli;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.pgknob.safety.SafetyRulesFile;
import org.pgknob.safety.WalRoom;
import org.pgknob.server.DiskReading;
import org.pgknob.server.OriginalSetting;
import org.pgknob.server.RestoreFile;
import org.pgknob.server.Target;
import org.pgknob.space.PgSetting;

/**
 * What {@code pgknob apply} says before it applies settings whose WAL the server's disk cannot hold
 * by the rule a session's proposals pass (half the WAL disk's room, short of the reserve).
 *
 * <p>A warning, not a refusal: max_wal_size is a soft limit that checkpoints keep the WAL under in
 * normal running, and apply is the user's own act on settings they chose; but a WAL that fills its
 * disk stops the server with a PANIC, and an 8GB PGTune value on a small disk is easy to apply
 * without a look at the disk.
 */
final class ApplyWalWarning {
  private ApplyWalWarning() {}

  /**
   * Why {@code wanted} keeps more WAL than the disk of {@code target} allows; empty when it fits,
   * when neither this host nor an agent reads that disk, or when the server cannot be asked
   * (configure then says why).
   */
  static Optional<String> of(Target target, Map<String, String> wanted) {
    Optional<DiskReading> disks = target.disks(target.facts());
    if (disks.isEmpty()) {
      return Optional.empty();
    }
    Map<String, PgSetting> asFound;
    try (Connection conn = target.connect("postgres")) {
      asFound = new LinkedHashMap<>(PgSetting.readAll(conn));
    } catch (SQLException e) {
      return Optional.empty();
    }
    if (!target.appliedSettings().isEmpty()) {
      // An earlier apply's values are pgknob's, not the server's as found: judged by the
      // originals, a second apply of the same big WAL warns again instead of passing as "found".
      for (OriginalSetting o : RestoreFile.read(target.restoreFile()).snapshot().originals()) {
        asFound.computeIfPresent(o.name(), (name, now) -> now.withSetting(o.setting()));
      }
    }
    return SafetyRulesFile.loadDefault()
        .walRisk(wanted, asFound, WalRoom.of(disks.get()))
        .map(
            why ->
                why
                    + "; a full WAL disk stops the server. Lower max_wal_size, or free space on"
                    + " that disk");
  }
}
