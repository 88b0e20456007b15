package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.testing.BusyQuery;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SharedPostgres;
import org.pgknob.trial.Guardrail;

/**
 * {@code pgknob agent} run as a separate process (as it would run on the database host) and read by
 * the tuner through --agent-command: its figures reach the guardrail, and an agent that fails,
 * prints garbage or stops is noticed.
 */
class AgentTest {
  /** The same pgknob, started as a new JVM from this test's class path. */
  private static String agentCommand(String dataDir) {
    return "exec '"
        + ProcessHandle.current().info().command().orElse("java")
        + "' -cp '"
        + System.getProperty("java.class.path")
        + "' org.pgknob.cli.Main agent --data-dir '"
        + dataDir
        + "'";
  }

  /** The shared cluster as a server elsewhere, its figures from a real agent process. */
  private static RemoteServer sharedServerWithAgent() {
    return sharedServerWith(agentCommand(SharedPostgres.cluster().dataDir().toString()));
  }

  /** The shared cluster as a server elsewhere, read through {@code agentCommand} (required). */
  private static RemoteServer sharedServerWith(String agentCommand) {
    ManagedCluster cluster = SharedPostgres.cluster();
    return RemoteServer.open(
        new RemoteServer.Options(
            cluster.jdbcUrl("postgres"),
            ManagedCluster.SUPERUSER,
            cluster.passwordFile(),
            null,
            Duration.ofSeconds(30),
            agentCommand,
            true));
  }

  @Test
  void theAgentsFiguresReachTheGuardrailAsALocalSamplersWould() throws Exception {
    RemoteServer server = sharedServerWithAgent();
    try (server) {
      ServerFacts facts = server.facts();
      assertTrue(facts.hostMemoryBytes().isPresent(), "the host's RAM, from the agent");
      ProcessSampler sampler = server.newSampler().orElseThrow();
      assertEquals(-1, sampler.postmasterPid(), "fed by the agent, not by /proc here");
      CountDownLatch tripped = new CountDownLatch(1);
      AtomicReference<Guardrail.Trip> trip = new AtomicReference<>();
      // A limit of 1 MB: the server's real PSS, as the agent measures it, crosses it at once.
      try (Guardrail guardrail =
          new Guardrail(
              server,
              "postgres",
              "pgknob-agent-test",
              1L << 20,
              t -> {
                trip.set(t);
                tripped.countDown();
              })) {
        sampler.addListener(guardrail);
        sampler.start();
        assertTrue(tripped.await(20, TimeUnit.SECONDS), "the guardrail tripped on the figures");
        sampler.close();
      }
      assertEquals("PSS", trip.get().figure());
      assertTrue(trip.get().figureBytes() > 1L << 20, trip.get().toString());
    }
  }

  /**
   * A query of another database on the database host takes a core the trial would have had: read
   * through the agent, which cannot know the workload's database, it counts as other processes for
   * a tuner whose workload uses another database, and as the server's for one whose workload is
   * that database.
   */
  @Test
  void aLongQueryOfAnotherDatabaseReadThroughTheAgentCountsAsOtherProcesses() throws Exception {
    RemoteServer server = sharedServerWithAgent();
    try (server;
        ProcessSampler elsewhere =
            server.newSampler().orElseThrow().countOtherClients("tprocc_not_this_one");
        ProcessSampler same = server.newSampler().orElseThrow().countOtherClients("postgres");
        BusyQuery query = BusyQuery.start()) {
      Thread.sleep(2500); // the agent has read the busy backend twice
      List<ResourceSummary> windows = fiveSecondWindows(elsewhere, same);
      ResourceSummary other = windows.get(0);
      ResourceSummary own = windows.get(1);
      double otherServer = (other.cpuUserPct() + other.cpuSysPct()) / 100;
      double ownServer = (own.cpuUserPct() + own.cpuSysPct()) / 100;
      assertTrue(
          other.foreignCpuAvgCores() - own.foreignCpuAvgCores() > 0.6,
          "foreign: " + other.foreignCpuAvgCores() + " against " + own.foreignCpuAvgCores());
      assertTrue(ownServer - otherServer > 0.6, "server: " + ownServer + " against " + otherServer);
    }
  }

  /**
   * The tuner's own work (its workload driver, here a thread of this JVM that keeps one core busy)
   * read through an agent on the same host counts as pgknob's own, as a sampler in the tuner counts
   * it, and not as other processes': the agent learns the tuner's process from the variable the
   * feed sets. An agent started without it, beside, reads the same core as other processes'.
   */
  @Test
  void theTunersOwnWorkReadThroughAnAgentOnItsHostIsNotOtherProcesses() throws Exception {
    String dataDir = SharedPostgres.cluster().dataDir().toString();
    RemoteServer told = sharedServerWithAgent();
    RemoteServer untold =
        sharedServerWith("unset " + TunerProcess.ENV + "; " + agentCommand(dataDir));
    AtomicBoolean spinning = new AtomicBoolean(true);
    Thread spinner =
        new Thread(
            () -> {
              long x = 0;
              while (spinning.get()) {
                x += System.nanoTime() % 7; // kept busy, never optimized away
              }
              sink = x;
            },
            "tuner-driver-stand-in");
    try (told;
        untold;
        ProcessSampler countsTuner = told.newSampler().orElseThrow();
        ProcessSampler countsOthers = untold.newSampler().orElseThrow()) {
      spinner.start();
      Thread.sleep(2500); // each agent has read the busy thread twice
      List<ResourceSummary> windows = fiveSecondWindows(countsTuner, countsOthers);
      ResourceSummary tuner = windows.get(0);
      ResourceSummary others = windows.get(1);
      assertTrue(
          others.foreignCpuAvgCores() - tuner.foreignCpuAvgCores() > 0.6,
          "foreign: "
              + others.foreignCpuAvgCores()
              + " without the variable, against "
              + tuner.foreignCpuAvgCores());
      assertTrue(tuner.foreignCpuAvgCores() < 0.4, "foreign: " + tuner.foreignCpuAvgCores());
    } finally {
      spinning.set(false);
      spinner.join();
    }
  }

  private static volatile long sink;

  /**
   * One window of about 5 s on each sampler at once, read 5 times a second (a read with nothing new
   * from the agent adds no sample); each window holds 3 samples or more.
   */
  private static List<ResourceSummary> fiveSecondWindows(ProcessSampler... samplers)
      throws InterruptedException {
    for (ProcessSampler s : samplers) {
      s.startWindow();
    }
    for (int i = 0; i < 25; i++) {
      Thread.sleep(200);
      for (ProcessSampler s : samplers) {
        s.sampleNow();
      }
    }
    List<ResourceSummary> windows = new java.util.ArrayList<>();
    for (ProcessSampler s : samplers) {
      windows.add(s.stopWindow());
    }
    assertTrue(windows.stream().allMatch(w -> w.samples() >= 3), windows.toString());
    return windows;
  }

  @Test
  void garbageAStopAndAFailureAreEachNoticedOnce() throws Exception {
    try (AgentFeed garbage = AgentFeed.start("echo hello; sleep 30")) {
      assertFalse(garbage.awaitFirstSample(10_000));
      assertEquals(Optional.of("printed something that is not a sample: hello"), garbage.failure());
      assertTrue(garbage.latest().isEmpty());
    }
    try (AgentFeed failing = AgentFeed.start("echo no route to host >&2; exit 255")) {
      assertFalse(failing.awaitFirstSample(10_000));
      assertEquals(Optional.of("stopped (exit status 255)"), failing.failure());
    }
    // One good line, then the agent dies mid-session: the callback hears it once.
    String line =
        "{\\\"epochMillis\\\":1,\\\"processes\\\":3,\\\"rssBytes\\\":10,\\\"pssBytes\\\":5,"
            + "\\\"hostMemTotalBytes\\\":100,\\\"hostMemAvailableBytes\\\":50}";
    try (AgentFeed stopping = AgentFeed.start("echo \"" + line + "\"; sleep 2; exit 1")) {
      assertTrue(stopping.awaitFirstSample(10_000));
      CountDownLatch heard = new CountDownLatch(1);
      AtomicReference<String> reason = new AtomicReference<>();
      stopping.onFailure(
          r -> {
            reason.set(r);
            heard.countDown();
          });
      assertTrue(heard.await(10, TimeUnit.SECONDS));
      assertEquals("stopped (exit status 1)", reason.get());
      assertTrue(stopping.latest().isEmpty());
    }
  }

  /**
   * After a restart the agent's newest sample is still the old postmaster's, whose configuration
   * may have crossed the memory limit: a trial's sampler, made after the restart, waits for the
   * agent's next reading rather than stop the trial on it.
   */
  @Test
  void aSamplerMadeAfterASampleArrivedWaitsForTheAgentsNextReading() throws Exception {
    String before = "{\"epochMillis\":1,\"processes\":9,\"rssBytes\":10,\"pssBytes\":2000}";
    String after = "{\"epochMillis\":2,\"processes\":7,\"rssBytes\":10,\"pssBytes\":100}";
    try (RemoteServer server =
        sharedServerWith("echo '" + before + "'; sleep 2; echo '" + after + "'; sleep 30")) {
      ProcessSampler sampler = server.newSampler().orElseThrow();
      assertNull(sampler.sampleNow(), "the sample from before the sampler is not the server now");
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      ProcessSample next = null;
      while (next == null && System.nanoTime() < deadline) {
        Thread.sleep(100);
        next = sampler.sampleNow();
      }
      assertNotNull(next, "the agent's next reading reaches the sampler");
      assertEquals(100, next.pssBytes());
      assertEquals(7, next.processes());
    }
  }

  @Test
  void requireAgentRefusesAnAgentThatPrintsNothingUseful() {
    PgknobException e =
        assertThrows(
            PgknobException.class, () -> sharedServerWith("echo '{\"status\": \"not an agent\"}'"));
    assertTrue(
        e.getMessage().contains("printed a sample without the server's processes"), e.getMessage());
    assertTrue(e.getMessage().contains("--require-agent"), e.getMessage());
  }

  /** A folder that is no data folder would have the agent wait for a server forever. */
  @Test
  @org.junit.jupiter.api.Timeout(30)
  void anAgentGivenAFolderThatIsNoDataFolderRefusesAtOnce(
      @org.junit.jupiter.api.io.TempDir java.nio.file.Path empty) {
    java.io.StringWriter out = new java.io.StringWriter();
    java.io.StringWriter err = new java.io.StringWriter();
    assertEquals(1, Cli.run(out, err, "agent", "--data-dir", empty.toString()));
    assertTrue(err.toString().contains("is not a PostgreSQL data folder"), err.toString());
    assertEquals(1, err.toString().strip().lines().count(), err.toString());
    assertTrue(out.toString().isEmpty(), out.toString());
  }
}
