package org.pgknob.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The tuner's JVM as a process of one running kernel: the kernel's boot id, the pid and the start
 * time in clock ticks after boot. The tuner hands it to an agent it starts ({@link AgentFeed}) in
 * the environment variable {@value #ENV}; an agent on the same host (the same boot id, and a
 * process of that pid that started at that tick) counts the tuner's process tree as pgknob's own,
 * as a sampler in the tuner does, and not as other processes' CPU. On another host, or in another
 * pid namespace, the three do not all match, and the tuner stays out of the agent's figures as it
 * is.
 *
 * <p>Why it matters: with the tuner and the server on one host, the tuner's workload driver takes
 * 0.12 to 0.23 of 2 cores during a window, which read through an agent used to count as other
 * processes' CPU, close to the line at which a window is disturbed and runs again.
 *
 * @param bootId /proc/sys/kernel/random/boot_id, the same for every process of one boot
 * @param pid the tuner's pid, as the kernel's initial pid namespace numbers it
 * @param startTicks the tuner's start time in clock ticks after boot, which tells a reused pid
 *     apart
 */
public record TunerProcess(String bootId, long pid, long startTicks) {
  /** The environment variable that carries it to the agent's command. */
  public static final String ENV = "PGKNOB_TUNER_PROCESS";

  private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");

  /** This JVM, or empty where /proc cannot say (not Linux). */
  public static Optional<TunerProcess> current() {
    long pid = ProcessHandle.current().pid();
    long start = ProcessTable.startTicks(Path.of("/proc"), pid);
    return thisBoot().filter(id -> start >= 0).map(id -> new TunerProcess(id, pid, start));
  }

  /** The running kernel's boot id, or empty when it cannot be read. */
  static Optional<String> thisBoot() {
    try {
      String id = Files.readString(BOOT_ID).trim();
      return id.isEmpty() ? Optional.empty() : Optional.of(id);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * Reads the variable's value ({@link #envValue}); empty for none, or for anything else: a value
   * the agent cannot read leaves the tuner among other processes, as an older tuner's absence does.
   */
  public static Optional<TunerProcess> parse(String value) {
    if (value == null) {
      return Optional.empty();
    }
    String[] f = value.trim().split(" ");
    if (f.length != 3 || f[0].isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new TunerProcess(f[0], Long.parseLong(f[1]), Long.parseLong(f[2])));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  /** The variable's value: boot id, pid and start ticks, separated by spaces. */
  public String envValue() {
    return bootId + " " + pid + " " + startTicks;
  }

  /** True when this process runs on the kernel this JVM runs on. */
  public boolean onThisHost() {
    return thisBoot().map(bootId::equals).orElse(false);
  }
}
