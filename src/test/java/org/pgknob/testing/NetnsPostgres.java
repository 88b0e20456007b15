package org.pgknob.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.pgknob.server.ManagedCluster;
import org.pgknob.server.PgknobHome;
import org.pgknob.server.PostgresBinaries;

/**
 * A PostgreSQL server on a "second host": a managed cluster started inside its own network
 * namespace, reached over a veth pair on a private test subnet (10.231.5.1 here, 10.231.5.2 there),
 * its processes in cgroup v1 memory and CPU groups of their own. pgknob stays in the root
 * namespace, so nothing may assume the server is local: it restarts through {@link
 * #restartCommand()} and sees the server's figures only through {@link #agentCommand()}.
 *
 * <p>{@link #close()} stops the server and removes the namespace (and with it the veth pair), the
 * cgroup and the cluster folder.
 */
public final class NetnsPostgres implements AutoCloseable {
  public static final String NAMESPACE = "pgknob-h5";
  public static final String HOST_IF = "pgkh5a";
  public static final String SERVER_IF = "pgkh5b";
  public static final String HOST_ADDRESS = "10.231.5.1";
  public static final String SERVER_ADDRESS = "10.231.5.2";
  public static final Path CGROUP = Path.of("/sys/fs/cgroup/memory/pgknob-h5-db");

  /**
   * The controllers mounted with the CPU controller on this host ("cpu", or "cpu,cpuacct" where
   * they share a hierarchy): the agent's namespace mounts the same set, as the host has it.
   */
  private static final String CPU_CONTROLLERS = cpuControllers();

  /** The server's cgroup v1 CPU group, where a test sets a quota; null without one. */
  public static final Path CPU_CGROUP =
      CPU_CONTROLLERS == null ? null : Path.of("/sys/fs/cgroup", CPU_CONTROLLERS, "pgknob-h5-db");

  private final ManagedCluster cluster;

  private NetnsPostgres(ManagedCluster cluster) {
    this.cluster = cluster;
  }

  /** Sets it all up and starts the server; skips (an assumption) without root, ip or cgroup v1. */
  public static NetnsPostgres start(long cgroupLimitBytes) throws IOException {
    try {
      return setUp(cgroupLimitBytes);
    } catch (RuntimeException | IOException e) {
      cleanUpLeftovers();
      throw e;
    }
  }

  private static NetnsPostgres setUp(long cgroupLimitBytes) throws IOException {
    Assumptions.assumeTrue(
        "root".equals(System.getProperty("user.name"))
            && (Files.isExecutable(Path.of("/usr/sbin/ip"))
                || Files.isExecutable(Path.of("/sbin/ip")))
            && Files.isWritable(CGROUP.getParent()),
        "root, ip and the writable cgroup v1 memory controller are needed");
    cleanUpLeftovers();
    sh("ip netns add " + NAMESPACE);
    sh("ip link add " + HOST_IF + " type veth peer name " + SERVER_IF);
    sh("ip link set " + SERVER_IF + " netns " + NAMESPACE);
    sh("ip addr add " + HOST_ADDRESS + "/24 dev " + HOST_IF + " && ip link set " + HOST_IF + " up");
    sh(
        inNamespace(
            "sh -c 'ip addr add "
                + SERVER_ADDRESS
                + "/24 dev "
                + SERVER_IF
                + " && ip link set "
                + SERVER_IF
                + " up && ip link set lo up'"));
    Files.createDirectories(CGROUP);
    setCgroupLimit(cgroupLimitBytes);
    if (cpuQuotaSupported()) {
      Files.createDirectories(CPU_CGROUP);
    }

    Path home = PgknobHome.resolve();
    Path dir = Files.createTempDirectory(Files.createDirectories(home), "netns-cluster-");
    ManagedCluster cluster = ManagedCluster.open(dir, PostgresBinaries.ensure(home), 5432);
    // Listen on the namespace's address only; the cluster's own start would write 127.0.0.1.
    Path conf = cluster.dataDir().resolve("pgknob-cluster.conf");
    Files.writeString(
        conf,
        "listen_addresses = '" + SERVER_ADDRESS + "'\nport = 5432\nunix_socket_directories = ''\n");
    Files.setAttribute(conf, "unix:uid", 65534);
    Files.setAttribute(conf, "unix:gid", 65534);
    Files.writeString(
        cluster.dataDir().resolve("pg_hba.conf"),
        "host all all " + HOST_ADDRESS + "/32 scram-sha-256\n",
        java.nio.file.StandardOpenOption.APPEND);
    NetnsPostgres pg = new NetnsPostgres(cluster);
    try {
      // pg_ctl restart needs postmaster.opts from an earlier start: the first start is a start.
      sh(pg.restartCommand().replace("'restart'", "'start'"));
    } catch (RuntimeException e) {
      pg.close();
      throw e;
    }
    return pg;
  }

  public ManagedCluster cluster() {
    return cluster;
  }

  public String jdbcUrl() {
    return "jdbc:postgresql://" + SERVER_ADDRESS + ":5432/postgres";
  }

  /** Restarts (or starts) the server inside the namespace, its processes in the cgroup. */
  public String restartCommand() {
    return "echo $$ > "
        + CGROUP.resolve("cgroup.procs")
        + (cpuQuotaSupported() ? " && echo $$ > " + CPU_CGROUP.resolve("cgroup.procs") : "")
        + " && exec ip netns exec "
        + NAMESPACE
        + " "
        + cluster.restartShellCommand();
  }

  /** {@code pgknob agent} on the server's side of the link, from this test's class path. */
  public String agentCommand() {
    // ip netns exec mounts a fresh /sys without the cgroup hierarchies a real host has: mount the
    // memory controller again (in the private mount namespace ip made) so the agent can read it.
    return "exec ip netns exec "
        + NAMESPACE
        + " sh -c \"mount -t tmpfs none /sys/fs/cgroup && mkdir /sys/fs/cgroup/memory"
        + " && mount -t cgroup -o memory none /sys/fs/cgroup/memory"
        + (cpuQuotaSupported()
            ? " && mkdir /sys/fs/cgroup/"
                + CPU_CONTROLLERS
                + " && mount -t cgroup -o "
                + CPU_CONTROLLERS
                + " none /sys/fs/cgroup/"
                + CPU_CONTROLLERS
            : "")
        + " && exec '"
        + ProcessHandle.current().info().command().orElse("java")
        + "' -cp '"
        + System.getProperty("java.class.path")
        + "' org.pgknob.cli.Main agent --data-dir '"
        + cluster.dataDir()
        + "'\"";
  }

  public static void setCgroupLimit(long bytes) throws IOException {
    Files.writeString(CGROUP.resolve("memory.limit_in_bytes"), Long.toString(bytes));
  }

  /** True when this host has a writable cgroup v1 CPU controller for {@link #setCpuQuota}. */
  public static boolean cpuQuotaSupported() {
    return CPU_CGROUP != null && Files.isWritable(CPU_CGROUP.getParent());
  }

  /**
   * Sets the server's CPU quota (cpu.cfs_quota_us over a 100 ms period), or lifts it with {@code
   * quotaMicros} -1.
   */
  public static void setCpuQuota(long quotaMicros) throws IOException {
    Files.writeString(CPU_CGROUP.resolve("cpu.cfs_period_us"), "100000");
    Files.writeString(CPU_CGROUP.resolve("cpu.cfs_quota_us"), Long.toString(quotaMicros));
  }

  private static String cpuControllers() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
        String[] parts = line.split(":", 3);
        if (parts.length == 3 && List.of(parts[1].split(",")).contains("cpu")) {
          return parts[1];
        }
      }
    } catch (IOException e) {
      // no cgroup v1 CPU controller: no quota tests
    }
    return null;
  }

  /** Takes the link down (true) or brings it back (false). */
  public static void linkDown(boolean down) {
    sh("ip link set " + HOST_IF + (down ? " down" : " up"));
  }

  @Override
  public void close() throws IOException {
    try {
      cluster.stop();
    } finally {
      cleanUpLeftovers();
      PgknobHome.deleteTree(cluster.clusterDir());
    }
  }

  private static void cleanUpLeftovers() {
    run("ip netns del " + NAMESPACE);
    run("ip link del " + HOST_IF);
    if (Files.isDirectory(CGROUP)) {
      run("rmdir " + CGROUP);
    }
    if (CPU_CGROUP != null && Files.isDirectory(CPU_CGROUP)) {
      run("rmdir " + CPU_CGROUP);
    }
  }

  private static String inNamespace(String command) {
    return "ip netns exec " + NAMESPACE + " " + command;
  }

  private static void sh(String command) {
    String out = run(command);
    if (out != null) {
      throw new IllegalStateException(command + " failed: " + out);
    }
  }

  /** Null on success, else the command's output. */
  private static String run(String command) {
    try {
      Path log = Files.createTempFile("pgknob-netns-", ".out");
      try {
        Process p =
            new ProcessBuilder(List.of("sh", "-c", command))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
          p.destroyForcibly();
          return "timed out";
        }
        return p.exitValue() == 0 ? null : Files.readString(log, StandardCharsets.UTF_8);
      } finally {
        Files.deleteIfExists(log);
      }
    } catch (IOException e) {
      return e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }
}
