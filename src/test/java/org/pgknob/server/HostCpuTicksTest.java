package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HostCpuTicksTest {
  private static final String TWO_CORES =
      """
      cpu  10132153 290696 3084719 46828483 16683 0 25195 175 0 0
      cpu0 1393280 32966 572056 13343292 6130 0 17875 100 0 0
      cpu1 1335808 40564 554563 13518208 4130 0 3157 75 0 0
      intr 1462898 24 0 0 0 0 0 0 0 1 0 0 0 0 0 0 0
      ctxt 1990473
      btime 1062191376
      processes 2915
      procs_running 1
      procs_blocked 0
      softirq 183433 0 21755 12 39 1137 231 21459 2263
      """;

  @Test
  void busyIsUserNiceSystemIrqSoftirqStealAndIdleIsIdleAndIowait() {
    HostCpuTicks t = HostCpuTicks.parse(TWO_CORES);
    assertEquals(10132153L + 290696 + 3084719 + 0 + 25195 + 175, t.busyTicks());
    assertEquals(46828483L + 16683, t.idleTicks());
    assertEquals(2, t.cores());
  }

  @Test
  void guestTimeIsNotCountedTwice() {
    HostCpuTicks t =
        HostCpuTicks.parse("cpu  100 0 50 1000 0 0 0 0 40 5\ncpu0 100 0 50 1000 0 0 0 0 40 5\n");
    assertEquals(150, t.busyTicks(), "guest is already part of user");
    assertEquals(1, t.cores());
  }

  @Test
  void oldKernelsWithoutStealStillParse() {
    HostCpuTicks t = HostCpuTicks.parse("cpu 1 2 3 4 5 6 7\ncpu0 1 2 3 4 5 6 7\n");
    assertEquals(1 + 2 + 3 + 6 + 7, t.busyTicks());
    assertEquals(4 + 5, t.idleTicks());
  }

  @Test
  void refusesTextWithoutTheAggregateLine() {
    assertThrows(
        IllegalArgumentException.class, () -> HostCpuTicks.parse("cpu0 1 2 3 4 5 6 7 8\n"));
  }

  @Test
  void readsThisHost() {
    HostCpuTicks t = HostCpuTicks.read();
    assertNotNull(t, "the tests run on Linux");
    assertTrue(t.cores() >= 1 && t.busyTicks() > 0 && t.idleTicks() >= 0, t.toString());
  }
}
