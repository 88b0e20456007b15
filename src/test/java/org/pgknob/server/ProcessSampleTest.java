package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ProcessSampleTest {
  private static final double EPS = 1e-9;

  /** 1.6 cores of server CPU, 0.95 of them another database's report, on a 2-core host. */
  private static ProcessSample busy(double hostBusyCores) {
    return new ProcessSample(
        1,
        9,
        100,
        90,
        150,
        10,
        0,
        0,
        1000,
        500,
        0,
        2,
        hostBusyCores,
        0.1,
        Math.max(0, hostBusyCores - 1.6 - 0.1),
        0,
        -1,
        -1,
        Map.of(
            "tpcc", new ProcessSample.ClientCpu(0.5, 0.05),
            "reports", new ProcessSample.ClientCpu(0.9, 0.05)));
  }

  @Test
  void otherDatabasesClientsMoveFromTheServersCpuToTheForeign() {
    ProcessSample moved = busy(1.9).otherDatabasesAsForeign("tpcc");
    assertEquals(60, moved.cpuUserPct(), EPS);
    assertEquals(5, moved.cpuSysPct(), EPS);
    // the host's 1.9 busy cores, less the server's 0.65 and pgknob's 0.1
    assertEquals(1.15, moved.foreignCpuCores(), EPS);
    assertEquals(1.9, moved.hostBusyCores(), EPS);
  }

  @Test
  void theWorkloadsOwnDatabaseStaysTheServers() {
    ProcessSample moved = busy(1.9).otherDatabasesAsForeign("reports");
    assertEquals(100, moved.cpuUserPct(), EPS);
    assertEquals(5, moved.cpuSysPct(), EPS);
    assertEquals(0.75, moved.foreignCpuCores(), EPS);
  }

  @Test
  void withoutTheHostsBusyTimeTheForeignCpuIsTheOtherClientsAlone() {
    ProcessSample moved = busy(0).otherDatabasesAsForeign("tpcc");
    assertEquals(0.95, moved.foreignCpuCores(), EPS);
  }

  @Test
  void clientsReadingMoreThanTheServerNeverLeaveANegativeServerCpu() {
    ProcessSample sample =
        new ProcessSample(
                1,
                9,
                100,
                90,
                20,
                1,
                0,
                0,
                1000,
                500,
                0,
                2,
                0.3,
                0.05,
                0.04,
                0,
                -1,
                -1,
                Map.of("reports", new ProcessSample.ClientCpu(0.3, 0.02)))
            .otherDatabasesAsForeign("tpcc");
    assertEquals(0, sample.cpuUserPct(), EPS);
    assertEquals(0, sample.cpuSysPct(), EPS);
    assertEquals(0.25, sample.foreignCpuCores(), EPS);
  }

  @Test
  void aSampleWithoutOtherClientsIsLeftAsItIs() {
    ProcessSample onlyWorkload =
        new ProcessSample(
            1,
            9,
            100,
            90,
            150,
            10,
            0,
            0,
            1000,
            500,
            0,
            2,
            1.9,
            0.1,
            0.2,
            0,
            -1,
            -1,
            Map.of("tpcc", new ProcessSample.ClientCpu(1.4, 0.1)));
    assertSame(onlyWorkload, onlyWorkload.otherDatabasesAsForeign("tpcc"));
  }
}
