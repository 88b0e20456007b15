package org.pgknob.session;

import java.util.Map;
import org.pgknob.safety.SafetyRules;
import org.pgknob.safety.WalRoom;
import org.pgknob.space.PgSetting;
import org.pgknob.space.PgUnit;

/** The console's line on what the disk rule and the disk guardrail allow in this session. */
final class DiskLine {
  private DiskLine() {}

  static String of(WalRoom room, SafetyRules rules, Map<String, PgSetting> serverSettings) {
    String reserve = PgUnit.readableBytes(rules.diskReserveBytes());
    if (!room.known()) {
      return "disk: neither this host nor an agent reads the server's WAL disk, so max_wal_size is"
          + " not checked against its free space (an agent on the database host,"
          + " --agent-command, reads it); an agent's free-space figures, if any, stop a trial"
          + " when less than "
          + reserve
          + " is free";
    }
    return "disk: a configuration's WAL (max_wal_size + wal_keep_size) may take up to "
        + PgUnit.readableBytes(rules.walAllowedBytes(room, serverSettings))
        + " of the "
        + PgUnit.readableBytes(room.bytes())
        + " of free space and WAL on "
        + room.where()
        + "; a trial stops when less than "
        + reserve
        + " is free";
  }
}
