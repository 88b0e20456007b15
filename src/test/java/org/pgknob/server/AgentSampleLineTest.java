package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.Json;

class AgentSampleLineTest {
  private static final String OLDER_AGENTS_LINE =
      "{\"epochMillis\":1,\"processes\":7,\"rssBytes\":100,\"pssBytes\":90,\"cpuUserPct\":1,"
          + "\"cpuSysPct\":1,\"readBytesPerSec\":0,\"writeBytesPerSec\":0,"
          + "\"hostMemTotalBytes\":1000,\"hostMemAvailableBytes\":500,\"cgroupLimitBytes\":0,"
          + "\"hostCores\":2,\"hostBusyCores\":0.5,\"ownCpuCores\":0.1,\"foreignCpuCores\":0,"
          + "\"cgroupCpus\":0}";

  @Test
  void anOlderAgentsSampleWithoutDiskFiguresReadsAsUnknownNotAsAFullDisk() throws Exception {
    assertEquals(-1, AgentFeed.parse(OLDER_AGENTS_LINE).diskFreeBytes());
    assertEquals(-1, AgentFeed.parse(OLDER_AGENTS_LINE).walRoomBytes());
  }

  /** An older agent sends no clients per database: nothing is moved to the foreign CPU. */
  @Test
  void anOlderAgentsSampleMovesNoClientsCpu() throws Exception {
    ProcessSample older = AgentFeed.parse(OLDER_AGENTS_LINE);
    assertEquals(Map.of(), older.clientCpuByDatabase());
    assertEquals(older, older.otherDatabasesAsForeign("tpcc"));
  }

  @Test
  void aSampleCarriesItsClientsCpuPerDatabaseThroughTheAgentsLine() throws Exception {
    ProcessSample sent =
        AgentFeed.parse(
            OLDER_AGENTS_LINE.replace(
                "}",
                ",\"clientCpuByDatabase\":{\"tpcc\":{\"userCores\":0.4,\"sysCores\":0.1},"
                    + "\"reports\":{\"userCores\":0.25,\"sysCores\":0.05}}}"));
    ProcessSample received = AgentFeed.parse(Json.mapper().writeValueAsString(sent));
    assertEquals(sent, received);
    assertEquals(
        new ProcessSample.ClientCpu(0.25, 0.05), received.clientCpuByDatabase().get("reports"));
  }

  @Test
  void aSampleCarriesItsDiskFiguresThroughTheAgentsLine() throws Exception {
    ProcessSample sent =
        AgentFeed.parse(
            OLDER_AGENTS_LINE.replace("}", ",\"diskFreeBytes\":42,\"walRoomBytes\":50}"));
    ProcessSample received = AgentFeed.parse(Json.mapper().writeValueAsString(sent));
    assertEquals(42, received.diskFreeBytes());
    assertEquals(50, received.walRoomBytes());
    assertEquals(sent, received);
  }
}
