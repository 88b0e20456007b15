package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.pgknob.testing.SharedPostgres;

/**
 * A process that is neither the server nor this JVM shows up as foreign CPU. The machine running
 * the tests is shared, so the burner's own CPU (read from its /proc entry) is the yardstick, not a
 * fixed share of the cores.
 */
class ForeignCpuTest {
  private static final Duration INTERVAL = Duration.ofMillis(250);
  private static final int SAMPLES = 8;

  @Test
  void aCpuBurningChildProcessIsCountedAsForeignCpu() throws Exception {
    long postmaster = SharedPostgres.cluster().postmasterPid().orElseThrow();
    try (ProcessSampler sampler = new ProcessSampler(postmaster, INTERVAL)) {
      ResourceSummary quiet = window(sampler);
      Process burner = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
      try {
        Thread.sleep(200);
        long burnerTicksBefore = cpuTicks(burner.pid());
        long t0 = System.nanoTime();
        ResourceSummary busy = window(sampler);
        double burnerCores =
            (cpuTicks(burner.pid()) - burnerTicksBefore)
                / (double) ProcessSampler.CLOCK_TICKS_PER_SECOND
                / ((System.nanoTime() - t0) / 1e9);
        System.out.printf(
            "foreign CPU: %.2f cores quiet, %.2f cores with a burner using %.2f cores (peak %.2f)%n",
            quiet.foreignCpuAvgCores(),
            busy.foreignCpuAvgCores(),
            burnerCores,
            busy.foreignCpuPeakCores());
        assertEquals(HostCpuTicks.read().cores(), busy.hostCores());
        assertTrue(busy.foreignCpuAvgCores() >= 0.5, busy.toString());
        assertTrue(
            busy.foreignCpuAvgCores() >= burnerCores - 0.2,
            "the burner's " + burnerCores + " cores are foreign: " + busy);
        assertTrue(busy.foreignCpuPeakCores() >= busy.foreignCpuAvgCores(), busy.toString());
        // Lower without the burner, unless other users of this shared machine already kept every
        // core busy (then the burner only takes their share and the total cannot rise).
        boolean hostWasFull = quiet.foreignCpuAvgCores() >= quiet.hostCores() - 0.5;
        assertTrue(
            hostWasFull || quiet.foreignCpuAvgCores() < busy.foreignCpuAvgCores(),
            quiet + " vs " + busy);
      } finally {
        burner.destroyForcibly();
        burner.waitFor();
      }
    }
  }

  @Test
  void theServersAndThisJvmsOwnCpuIsNotForeign() throws Exception {
    long postmaster = SharedPostgres.cluster().postmasterPid().orElseThrow();
    try (ProcessSampler sampler = new ProcessSampler(postmaster, INTERVAL)) {
      var os =
          (com.sun.management.OperatingSystemMXBean)
              java.lang.management.ManagementFactory.getOperatingSystemMXBean();
      sampler.sampleNow();
      long cpuBefore = os.getProcessCpuTime();
      long wallBefore = System.nanoTime();
      Thread.sleep(INTERVAL.toMillis());
      long until = System.nanoTime() + INTERVAL.toNanos();
      long spins = 0;
      while (System.nanoTime() < until) {
        spins++; // this JVM busy for one interval
      }
      // the CPU this JVM actually got is the yardstick, as the burner's is above: on a loaded
      // machine the spinning thread gets less than a core
      double jvmCores =
          (os.getProcessCpuTime() - cpuBefore) / (double) (System.nanoTime() - wallBefore);
      ProcessSample s = sampler.sampleNow();
      assertTrue(spins > 0);
      assertTrue(jvmCores > 0.05, "the spinning thread got some CPU: " + jvmCores);
      assertTrue(
          s.ownCpuCores() >= jvmCores - 0.1, "this JVM's " + jvmCores + " cores are its own: " + s);
      assertTrue(s.hostBusyCores() >= s.ownCpuCores() - 0.1, s.toString());
      assertTrue(
          s.foreignCpuCores() <= Math.max(0, s.hostBusyCores() - s.ownCpuCores()) + 1e-9,
          s.toString());
    }
  }

  private static ResourceSummary window(ProcessSampler sampler) throws InterruptedException {
    sampler.sampleNow();
    sampler.startWindow();
    for (int i = 0; i < SAMPLES; i++) {
      Thread.sleep(INTERVAL.toMillis());
      sampler.sampleNow();
    }
    return sampler.stopWindow();
  }

  /** utime + stime of a process. */
  private static long cpuTicks(long pid) throws Exception {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }
}
