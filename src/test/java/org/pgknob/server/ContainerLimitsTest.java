package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.testing.SharedPostgres;

/**
 * A server under cgroup limits is tuned for them: its postmaster moved into a cgroup v1 CPU group
 * with a quota of half a core, and a memory group with a 1 GiB limit, shows 1 core and 1 GiB in its
 * facts (what the memory limit and the PGTune-style row use), not the host's cores and RAM.
 */
class ContainerLimitsTest {
  private static final Path CPU = Path.of("/sys/fs/cgroup/cpu");
  private static final Path MEMORY = Path.of("/sys/fs/cgroup/memory");

  @Test
  void theServersCgroupLimitsReplaceTheHostsCoresAndRam() throws Exception {
    Assumptions.assumeTrue(
        Files.isWritable(CPU) && Files.isWritable(MEMORY), "cgroup v1 cpu and memory, writable");
    ManagedCluster cluster = SharedPostgres.cluster();
    String pid = Long.toString(cluster.postmasterPid().orElseThrow());
    Path cpu = Files.createDirectories(CPU.resolve("pgknob-h5-limits"));
    Path memory = Files.createDirectories(MEMORY.resolve("pgknob-h5-limits"));
    Path cpuBefore = groupOf(pid, "cpu", CPU);
    Path memoryBefore = groupOf(pid, "memory", MEMORY);
    try {
      Files.writeString(cpu.resolve("cpu.cfs_period_us"), "100000");
      Files.writeString(cpu.resolve("cpu.cfs_quota_us"), "50000");
      Files.writeString(memory.resolve("memory.limit_in_bytes"), Long.toString(1L << 30));
      Files.writeString(cpu.resolve("cgroup.procs"), pid);
      Files.writeString(memory.resolve("cgroup.procs"), pid);

      ServerFacts facts = cluster.facts();
      assertEquals(OptionalInt.of(1), facts.hostCores(), "half a core's quota is 1 core");
      assertEquals(OptionalLong.of(1L << 30), facts.cgroupMemoryLimitBytes());
      assertTrue(Runtime.getRuntime().availableProcessors() >= 1);
    } finally {
      moveBackAndRemove(cpu, cpuBefore);
      moveBackAndRemove(memory, memoryBefore);
    }
  }

  /** Backends forked meanwhile joined the group too: every process goes back before rmdir. */
  private static void moveBackAndRemove(Path group, Path before) throws Exception {
    for (int attempt = 0; attempt < 50; attempt++) {
      for (String p : Files.readAllLines(group.resolve("cgroup.procs"))) {
        try {
          Files.writeString(before.resolve("cgroup.procs"), p.strip());
        } catch (java.io.IOException e) {
          // exited meanwhile
        }
      }
      try {
        Files.delete(group);
        return;
      } catch (java.nio.file.FileSystemException e) {
        Thread.sleep(100); // a process was forked while we moved the others
      }
    }
    Files.delete(group);
  }

  @Test
  void aServerOlderThan15IsRefusedNamingTheSupportedVersions() {
    PgknobException e =
        assertThrows(() -> SupportedVersions.require(140011, "the server at db:5432"));
    assertEquals(
        "the server at db:5432 runs PostgreSQL 14, which pgknob does not support: it supports"
            + " PostgreSQL 15 to 18",
        e.getMessage());
    SupportedVersions.require(150018, "Debian's 15"); // accepted
  }

  private static PgknobException assertThrows(Runnable r) {
    return org.junit.jupiter.api.Assertions.assertThrows(PgknobException.class, r::run);
  }

  /** The cgroup folder of {@code pid} in a v1 hierarchy, e.g. /sys/fs/cgroup/cpu/. */
  private static Path groupOf(String pid, String controller, Path mount) throws Exception {
    for (String line : Files.readAllLines(Path.of("/proc", pid, "cgroup"))) {
      String[] parts = line.split(":", 3);
      if (parts.length == 3 && java.util.List.of(parts[1].split(",")).contains(controller)) {
        Path dir = mount.resolve(parts[2].substring(1));
        return Files.isDirectory(dir) ? dir : mount;
      }
    }
    return mount;
  }
}
