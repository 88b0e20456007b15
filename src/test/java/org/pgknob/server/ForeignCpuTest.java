package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.pgknob.testing.SharedPostgres;

/**
 * A process that is neither the server nor pgknob (this JVM and what it started) shows up as
 * foreign CPU; a process pgknob started, as a --workload-cmd benchmark, does not. The machine
 * running the tests is shared, so the burner's own CPU (read from its /proc entry) is the
 * yardstick, not a fixed share of the cores.
 */
class ForeignCpuTest {
  private static final Duration INTERVAL = Duration.ofMillis(250);
  private static final int SAMPLES = 8;

  @Test
  void aCpuBurningProcessOutsidePgknobIsCountedAsForeignCpu() throws Exception {
    long postmaster = SharedPostgres.cluster().postmasterPid().orElseThrow();
    try (ProcessSampler sampler = new ProcessSampler(postmaster, INTERVAL)) {
      ResourceSummary quiet = window(sampler);
      ProcessHandle burner = orphanBurner();
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
        burner.onExit().get();
      }
    }
  }

  @Test
  void aCpuBurningProcessPgknobStartedIsItsOwnCpuNotForeign() throws Exception {
    long postmaster = SharedPostgres.cluster().postmasterPid().orElseThrow();
    try (ProcessSampler sampler = new ProcessSampler(postmaster, INTERVAL)) {
      // A benchmark command as CommandWorkload runs it: a child of this JVM.
      Process burner = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
      try {
        Thread.sleep(200);
        sampler.sampleNow();
        long burnerTicksBefore = cpuTicks(burner.pid());
        long t0 = System.nanoTime();
        double own = 0;
        double foreign = 0;
        double hostBusy = 0;
        for (int i = 0; i < SAMPLES; i++) {
          Thread.sleep(INTERVAL.toMillis());
          ProcessSample s = sampler.sampleNow();
          own += s.ownCpuCores() / SAMPLES;
          foreign += s.foreignCpuCores() / SAMPLES;
          hostBusy += s.hostBusyCores() / SAMPLES;
        }
        double burnerCores =
            (cpuTicks(burner.pid()) - burnerTicksBefore)
                / (double) ProcessSampler.CLOCK_TICKS_PER_SECOND
                / ((System.nanoTime() - t0) / 1e9);
        System.out.printf(
            "a child burning %.2f cores: own %.2f, foreign %.2f of %.2f busy%n",
            burnerCores, own, foreign, hostBusy);
        assertTrue(burnerCores > 0.3, "the burner got some CPU: " + burnerCores);
        assertTrue(own >= burnerCores - 0.2, "the child's " + burnerCores + " cores: own " + own);
        assertTrue(
            foreign <= Math.max(0, hostBusy - burnerCores) + 0.2,
            "the child's " + burnerCores + " cores are not foreign: " + foreign);
      } finally {
        burner.destroyForcibly();
        burner.waitFor();
      }
    }
  }

  @Test
  void aChildThatRanAndExitedBetweenTwoReadingsStillCountsAsPgknobsOwn() throws Exception {
    long postmaster = SharedPostgres.cluster().postmasterPid().orElseThrow();
    try (ProcessSampler sampler = new ProcessSampler(postmaster, INTERVAL)) {
      sampler.sampleNow();
      long t0 = System.nanoTime();
      Process burner = new ProcessBuilder("sh", "-c", "while :; do :; done").start();
      Thread.sleep(600);
      long burnerTicks = cpuTicks(burner.pid());
      burner.destroyForcibly();
      burner.waitFor(); // reaped by this JVM: its time is now in this JVM's children's time
      ProcessSample s = sampler.sampleNow();
      double seconds = (System.nanoTime() - t0) / 1e9;
      double burnerSeconds = burnerTicks / (double) ProcessSampler.CLOCK_TICKS_PER_SECOND;
      System.out.printf(
          "a child that burned %.2f s and exited: own %.2f s of %.2f s%n",
          burnerSeconds, s.ownCpuCores() * seconds, seconds);
      assertTrue(burnerSeconds > 0.1, "the burner got some CPU: " + burnerSeconds);
      assertTrue(
          s.ownCpuCores() * seconds >= burnerSeconds - 0.1,
          "the exited child's " + burnerSeconds + " s are pgknob's own: " + s);
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

  @Test
  void backendsThatConnectedWorkedAndExitedBetweenTwoReadingsAreTheServersCpuNotForeign()
      throws Exception {
    long postmaster = SharedPostgres.cluster().postmasterPid().orElseThrow();
    try (ProcessSampler sampler = new ProcessSampler(postmaster, INTERVAL)) {
      sampler.start();
      Thread.sleep(INTERVAL.toMillis());
      sampler.startWindow();
      long reapedBefore = reapedChildrenTicks(postmaster);
      long t0 = System.nanoTime();
      int connections = 0;
      // A connection per transaction, as a web application or pgbench -C works: each backend
      // lives a few tens of milliseconds, most of them between two readings.
      while (System.nanoTime() - t0 < 2_000_000_000L) {
        try (Connection c = SharedPostgres.connect();
            Statement st = c.createStatement()) {
          st.execute("SELECT count(*) FROM generate_series(1, 200000)");
        }
        connections++;
      }
      Thread.sleep(INTERVAL.toMillis()); // the last backend exits and is reaped
      ResourceSummary window = sampler.stopWindow();
      double seconds = (System.nanoTime() - t0) / 1e9;
      double reapedSeconds =
          (reapedChildrenTicks(postmaster) - reapedBefore)
              / (double) ProcessSampler.CLOCK_TICKS_PER_SECOND;
      double serverSeconds = (window.cpuUserPct() + window.cpuSysPct()) / 100 * seconds;
      System.out.printf(
          "%d short connections: backends' CPU %.2f s (postmaster's reaped children), server"
              + " %.2f s, foreign %.2f cores over %.2f s%n",
          connections, reapedSeconds, serverSeconds, window.foreignCpuAvgCores(), seconds);
      assertTrue(reapedSeconds > 0.2, "the backends got some CPU: " + reapedSeconds);
      assertTrue(
          serverSeconds >= reapedSeconds - 0.15,
          "the exited backends' " + reapedSeconds + " s are the server's: " + window);
    }
  }

  /**
   * A busy loop that is not this JVM's descendant: started in the background by a shell that then
   * exits, so it is re-parented away from this JVM, as another user's build would be.
   */
  private static ProcessHandle orphanBurner() throws Exception {
    Process shell =
        new ProcessBuilder("sh", "-c", "sh -c 'while :; do :; done' >/dev/null 2>&1 & echo $!")
            .start();
    long pid = Long.parseLong(new String(shell.getInputStream().readAllBytes()).trim());
    shell.waitFor();
    ProcessHandle burner = ProcessHandle.of(pid).orElseThrow();
    long self = ProcessHandle.current().pid();
    for (var p = burner.parent(); p.isPresent(); p = p.get().parent()) {
      assertTrue(p.get().pid() != self, "the burner must not be this JVM's descendant");
    }
    return burner;
  }

  /** cutime + cstime of a process: the time of the children it reaped. */
  private static long reapedChildrenTicks(long pid) throws Exception {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    return Long.parseLong(f[13]) + Long.parseLong(f[14]);
  }

  /** utime + stime of a process. */
  private static long cpuTicks(long pid) throws Exception {
    String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }
}
