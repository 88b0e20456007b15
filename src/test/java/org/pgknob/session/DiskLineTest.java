package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.safety.SafetyRules;
import org.pgknob.safety.SafetyRulesFile;
import org.pgknob.safety.WalRoom;
import org.pgknob.space.PgSetting;

class DiskLineTest {
  private static final SafetyRules RULES = SafetyRulesFile.loadDefault();
  private static final Map<String, PgSetting> SERVER =
      Map.of(
          "max_wal_size",
          new PgSetting(
              "max_wal_size",
              "integer",
              "MB",
              2,
              2147483647,
              "1024",
              "1024",
              "sighup",
              List.of(),
              "default"));

  @Test
  void aKnownRoomGivesTheWalLimitAndWhereTheDiskWasRead() {
    WalRoom room = new WalRoom(10L << 30, "/srv/pg on the database host, as the agent reads it");
    assertEquals(
        "disk: a configuration's WAL (max_wal_size + wal_keep_size) may take up to 5GB of the"
            + " 10GB of free space and WAL on /srv/pg on the database host, as the agent reads"
            + " it; a trial stops when less than 1GB is free",
        DiskLine.of(room, RULES, SERVER));
  }

  @Test
  void anUnknownRoomSaysTheWalIsNotCheckedAndWhatWouldReadIt() {
    String line = DiskLine.of(WalRoom.UNKNOWN, RULES, SERVER);
    assertTrue(
        line.startsWith("disk: neither this host nor an agent reads the server's WAL disk, so")
            && line.contains("not checked")
            && line.contains("--agent-command"),
        line);
  }
}
