package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.pgknob.safety.RamLimit;
import org.pgknob.safety.SafetyRulesFile;
import org.pgknob.target.HostMemory;
import org.pgknob.target.ManagedCluster;
import org.pgknob.target.ProcessSample;
import org.pgknob.target.ProcessSampler;
import org.pgknob.target.RemoteServer;
import org.pgknob.target.ServerFacts;
import org.pgknob.testing.NetnsPostgres;
import org.pgknob.trial.Guardrail;
import picocli.CommandLine;

/**
 * A server on a second host: in its own network namespace behind a veth pair, its processes in a
 * cgroup with a memory limit; pgknob in the root namespace reaches it only over the link, restarts
 * it with {@code ip netns exec ...} and sees its memory only through {@code pgknob agent} run in
 * the namespace.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecondHostTest {
  private static final long CGROUP_LIMIT = 2L << 30;
  private static NetnsPostgres pg;

  @BeforeAll
  static void startTheServerInItsNamespace() throws Exception {
    pg = NetnsPostgres.start(CGROUP_LIMIT);
  }

  @AfterAll
  static void removeIt() throws Exception {
    if (pg != null) {
      pg.close();
    }
  }

  @Test
  @Order(1)
  void connectsRestartsThroughTheCommandAndReadsTheHostThroughTheAgent() throws Exception {
    String autoConf = autoConf();
    try (RemoteServer server = open()) {
      assertFalse(server.isLocal(), "10.231.5.2 is another host for pgknob");
      ServerFacts facts = server.facts();
      assertEquals(OptionalLong.of(CGROUP_LIMIT), facts.cgroupMemoryLimitBytes(), "from the agent");
      assertTrue(facts.hostMemoryBytes().isPresent());

      assertTrue(server.configure(Map.of("shared_buffers", "192MB")).restarted());
      assertEquals("192MB", show(server, "shared_buffers"));
      assertTrue(server.restoreOriginals().restarted());
      assertEquals("128MB", show(server, "shared_buffers"));
    }
    assertEquals(autoConf, autoConf());
  }

  @Test
  @Order(2)
  void theTproccDriverRunsOverTheLink() {
    assertEquals(0, run(remote("tprocc", "build", "--warehouses", "1")), err.toString());
    assertEquals(
        0,
        run(remote("tprocc", "run", "--users", "2", "--rampup", "1s", "--duration", "2s")),
        err.toString());
    assertTrue(out.toString().contains("NOPM"), out.toString());
  }

  @Test
  @Order(3)
  void theGuardrailTripsOnTheLimitOfTheServersCgroupAsTheAgentReadsIt() throws Exception {
    try (RemoteServer server = open()) {
      // The server holds its TPROC-C data in shared_buffers now; set its cgroup's limit so that
      // the safety rules' line (0.9 x the limit) lies under what it really holds.
      ProcessSample now = server.agent().orElseThrow().latest().orElseThrow();
      long limit = Math.max(now.pssBytes() * 100 / 95, 64L << 20) / 4096 * 4096; // whole pages
      NetnsPostgres.setCgroupLimit(limit);
      try {
        Thread.sleep(2500); // the agent's next samples carry the new limit
        ServerFacts facts = server.facts();
        assertEquals(OptionalLong.of(limit), facts.cgroupMemoryLimitBytes());
        RamLimit ram =
            RamLimit.of(
                new HostMemory(
                    facts.hostMemoryBytes().getAsLong(),
                    0,
                    facts.cgroupMemoryLimitBytes().getAsLong()),
                OptionalLong.empty());
        assertEquals("cgroup limit", ram.source());
        long line = SafetyRulesFile.loadDefault().limitBytes(ram);

        ProcessSampler sampler = server.newSampler().orElseThrow();
        CountDownLatch tripped = new CountDownLatch(1);
        AtomicReference<Guardrail.Trip> trip = new AtomicReference<>();
        try (Guardrail guardrail =
            new Guardrail(
                server,
                "postgres",
                "pgknob-second-host-test",
                line,
                t -> {
                  trip.set(t);
                  tripped.countDown();
                })) {
          sampler.addListener(guardrail);
          sampler.start();
          assertTrue(tripped.await(20, TimeUnit.SECONDS), "tripped on the agent's PSS");
          sampler.close();
        }
        assertEquals("PSS", trip.get().figure());
        assertEquals(line, trip.get().limitBytes());
      } finally {
        NetnsPostgres.setCgroupLimit(CGROUP_LIMIT);
      }
    }
  }

  @Test
  @Order(4)
  void aLinkThatDropsMidRunEndsTheRunWithAnErrorNotAHang() throws Exception {
    var executor = java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      long t0 = System.nanoTime();
      var exit =
          executor.submit(
              () ->
                  run(
                      remote(
                          "tprocc",
                          "run",
                          "--reset",
                          "none",
                          "--users",
                          "2",
                          "--rampup",
                          "1s",
                          "--duration",
                          "8s",
                          "--stop-timeout",
                          "3s")));
      Thread.sleep(5000); // connected and inside the window
      NetnsPostgres.linkDown(true);
      try {
        assertEquals(1, exit.get(90, TimeUnit.SECONDS), out.toString());
      } finally {
        NetnsPostgres.linkDown(false);
      }
      assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(90));
      // Progress lines go to stderr too; the run's end is one line naming the cause.
      String[] lines = err.toString().strip().split("\n");
      String last = lines[lines.length - 1];
      assertTrue(last.startsWith("pgknob: 2 virtual users were still in a transaction"), last);
    } finally {
      executor.shutdownNow();
    }
    try (RemoteServer server = open()) {
      assertEquals("128MB", show(server, "shared_buffers"), "the server is back over the link");
    }
  }

  /**
   * What guards memory is said once at the start: without an agent, the prediction alone; an agent
   * printing garbage is named; with --require-agent the session does not start. A search space the
   * server refuses ends each session right after that, cheaply.
   */
  @Test
  @Order(5)
  void theSessionSaysWhatGuardsMemoryOnAServerElsewhere(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
    java.nio.file.Path space = dir.resolve("space.yaml");
    Files.writeString(space, "knobs:\n  no_such_setting: {type: bool}\n");
    List<String> tune =
        remote("tune", "--budget", "10", "--space", space.toString(), "--out", dir.toString());

    assertEquals(1, run(tune));
    String[] lines = err.toString().strip().split("\n");
    assertEquals(
        "pgknob: PostgreSQL at "
            + NetnsPostgres.SERVER_ADDRESS
            + ":5432 as postgres runs on another host and no agent reports its memory"
            + " (--agent-command): the memory guardrail relies on the safety rules' prediction"
            + " alone",
        lines[0]);
    assertTrue(lines[lines.length - 1].contains("no_such_setting"), err.toString());

    List<String> garbage = new ArrayList<>(tune);
    garbage.addAll(List.of("--agent-command", "echo garbage"));
    assertEquals(1, run(garbage));
    assertTrue(
        err.toString()
            .startsWith(
                "pgknob: the agent command 'echo garbage' printed something that is not a sample:"
                    + " garbage; the memory guardrail relies on the safety rules' prediction alone"
                    + " from now on\n"),
        err.toString());

    garbage.add("--require-agent");
    assertEquals(1, run(garbage));
    assertTrue(
        err.toString().startsWith("pgknob: the agent command 'echo garbage' printed something"),
        err.toString());
    assertTrue(err.toString().contains("--require-agent was given"), err.toString());
    assertEquals(1, err.toString().strip().split("\n").length, err.toString());
  }

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private static RemoteServer open() {
    return RemoteServer.open(
        new RemoteServer.Options(
            pg.jdbcUrl(),
            ManagedCluster.SUPERUSER,
            pg.cluster().passwordFile(),
            pg.restartCommand(),
            Duration.ofSeconds(90),
            pg.agentCommand(),
            true));
  }

  private static List<String> remote(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(
        List.of(
            "--target",
            pg.jdbcUrl(),
            "--user",
            ManagedCluster.SUPERUSER,
            "--password-file",
            pg.cluster().passwordFile().toString()));
    return all;
  }

  private int run(List<String> args) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    CommandLine cl = Main.commandLine();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    return cl.execute(args.toArray(String[]::new));
  }

  private static String show(RemoteServer server, String name) throws Exception {
    try (Connection conn = server.connect("postgres");
        ResultSet rs = conn.createStatement().executeQuery("SHOW " + name)) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static String autoConf() throws Exception {
    return Files.readString(pg.cluster().dataDir().resolve("postgresql.auto.conf"));
  }
}
