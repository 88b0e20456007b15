package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.report.ConfExporter;
import org.pgknob.runs.Summary;
import org.pgknob.server.ManagedCluster;
import org.pgknob.server.PgknobHome;
import org.pgknob.server.PostgresBinaries;
import org.pgknob.space.PgUnit;
import org.pgknob.testing.SessionPostgres;
import org.pgknob.testing.SmallDisk;
import org.pgknob.trial.Status;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.Progress;

/**
 * Sessions on a server whose data directory lies on a small disk of its own (a 700 MB tmpfs), so
 * that what fills it is known: a disk without room for the server's WAL and the guardrail's reserve
 * is refused before anything changes; on a disk with room, proposals keep their WAL within the
 * disk's share, and a trial during which the disk runs low is stopped, its settings put back, and
 * the session goes on.
 */
class DiskGuardSessionTest {
  private static final long MB = 1L << 20;

  /**
   * Restart track only, at its smallest budget: 3 baseline runs, 1 Bayesian slot (run as several
   * proposals), 3 validation rounds of the defaults, the pick and PGTune-style.
   */
  private static final String BUDGET = "13";

  private SmallDisk disk;
  private Path mount;
  private ManagedCluster cluster;

  @BeforeEach
  void smallDisk() throws Exception {
    Path home = PgknobHome.resolve();
    // Under pgknob's home: the server's user must reach the folder, which a test's /tmp folder
    // (mode 700) does not let it.
    disk =
        SmallDisk.mount(
            Files.createTempDirectory(Files.createDirectories(home), "small-disk-"), "700m");
    mount = disk.path();
    cluster = ManagedCluster.open(mount.resolve("cluster"), PostgresBinaries.ensure(home), 0);
    cluster.start();
  }

  @AfterEach
  void unmount() throws Exception {
    if (cluster != null) {
      cluster.stop();
    }
    if (disk != null) {
      disk.close();
      PgknobHome.deleteTree(mount);
    }
  }

  @Test
  void aDiskWithoutRoomForTheReserveOrForTheServersWalIsRefusedBeforeAnythingChanges(
      @org.junit.jupiter.api.io.TempDir Path runs) throws Exception {
    Map<String, String> before = SessionPostgres.settings(cluster);
    SessionFolder folder = SessionFolder.create(runs, Clock.systemUTC());
    cluster.useRestoreFile(folder.file(SessionFolder.RESTORE_FILE));

    // The default reserve, 1GB, is more than the 700 MB disk has free.
    PgknobException noReserve =
        assertThrows(PgknobException.class, () -> session(folder, inputs("", "unused"), null));
    assertTrue(
        noReserve.getMessage().startsWith("the server's disk has ")
            && noReserve.getMessage().contains(mount.resolve("cluster").toString())
            && noReserve.getMessage().contains("under the reserve of 1GB"),
        noReserve.getMessage());
    assertTrue(noReserve.fix().contains("lower disk.reserve in a rules file given with --rules"));

    // A reserve of 300MB fits, but not with max_wal_size's default of 1GB beside it.
    PgknobException noWal =
        assertThrows(
            PgknobException.class,
            () -> session(folder, inputs(rules(runs, "300MB").toString(), "unused"), null));
    assertTrue(
        noWal.getMessage().startsWith("the server's WAL disk has ")
            && noWal.getMessage().contains("the WAL the server keeps as it is configured (1GB")
            && noWal.getMessage().contains("the reserve of 300MB"),
        noWal.getMessage());
    assertTrue(noWal.fix().contains("lower max_wal_size"), noWal.fix());
    assertEquals(Set.of(), SessionPostgres.differences(before, SessionPostgres.settings(cluster)));
  }

  @Test
  void aTrialDuringWhichTheDiskRunsLowIsStoppedPutBackAndTheSessionGoesOn(
      @org.junit.jupiter.api.io.TempDir Path runs) throws Exception {
    try (Connection c = cluster.connect("postgres");
        Statement st = c.createStatement()) {
      // A server that keeps little WAL, as a DBA with a small disk sets it.
      st.execute("ALTER SYSTEM SET max_wal_size = '96MB'");
      st.execute("ALTER SYSTEM SET min_wal_size = '32MB'");
      st.execute("SELECT pg_reload_conf()");
    }
    Path rules = rules(runs, "200MB");
    Map<String, String> before = SessionPostgres.settings(cluster);
    SessionFolder folder = SessionFolder.create(runs.resolve("runs"), Clock.systemUTC());
    cluster.useRestoreFile(folder.file(SessionFolder.RESTORE_FILE));
    Path filler = mount.resolve("filler");
    // The fifth run (a Bayesian proposal) writes 500 MB beside the data directory: the disk's
    // free space falls under the reserve while the run goes on, as a WAL growing would.
    String workload =
        "cat >/dev/null; n=$(( $(cat '"
            + runs.resolve("count")
            + "' 2>/dev/null || echo 0) + 1 )); echo $n > '"
            + runs.resolve("count")
            + "'; if [ $n -eq 5 ]; then head -c 500000000 /dev/zero > '"
            + filler
            + "'; sleep 3; rm -f '"
            + filler
            + "'; fi; sleep 1; echo '{\"value\": 1000, \"latency_ms\": 4}'";
    StringWriter out = new StringWriter();

    session(folder, inputs(rules.toString(), workload), out).run();

    List<TrialResult> trials = folder.trials().read().trials();
    String all =
        trials.stream()
            .map(t -> t.trial() + " " + t.label() + " " + t.status() + " " + t.settings())
            .collect(Collectors.joining("\n"));
    List<TrialResult> guarded =
        trials.stream().filter(t -> t.status() == Status.DISK_GUARD).toList();
    assertEquals(1, guarded.size(), "the fifth run alone: " + all);
    TrialResult stopped = guarded.get(0);
    assertTrue(stopped.trial() > 3, "not a baseline run: " + all);
    assertTrue(
        stopped.reason().startsWith("free space on the server's data or WAL disk fell to ")
            && stopped.reason().contains("under the reserve of 200MB"),
        stopped.reason());
    assertTrue(
        trials.subList(stopped.trial(), trials.size()).stream()
            .anyMatch(t -> t.status() == Status.OK),
        "the session went on: " + all);
    // Each run's window records the least free space it saw (the report's disk chart).
    for (TrialResult t : trials) {
      if (t.status() == Status.OK) {
        Long least = t.resources().diskFreeLeastBytes();
        assertTrue(least != null && least > 200 * MB && least < 700 * MB, t.trial() + ": " + least);
      }
    }
    // The disk's share for WAL, as the console says it, holds for every proposal.
    String console = out.toString();
    String line =
        console
            .lines()
            .filter(l -> l.startsWith("disk: a configuration's WAL"))
            .findFirst()
            .orElseThrow(() -> new AssertionError(console));
    long limit =
        PgUnit.parseBytes(line.replaceAll(".* may take up to (\\S+) of the .*", "$1"))
            .orElseThrow();
    assertTrue(limit > 100 * MB && limit < 400 * MB, line);
    for (TrialResult t : trials) {
      String maxWal = t.settings().get("max_wal_size");
      if (maxWal != null && !t.label().contains("pgtune")) {
        assertTrue(
            PgUnit.parseBytes(maxWal).orElseThrow() <= limit, t.trial() + " " + t.settings());
      }
    }
    // PGTune-style is measured as given, with its 8GB max_wal_size: its row and its export say
    // that the disk cannot hold that WAL, with the limit every proposal met.
    Summary.ResultRow pgtune =
        folder.readSummary().results().stream()
            .filter(r -> r.name().equals("pgtune"))
            .findFirst()
            .orElseThrow();
    String limitText = PgUnit.readableBytes(limit);
    assertTrue(
        pgtune.diskWarning() != null
            && pgtune.diskWarning().startsWith("the WAL it may keep, 8GB (max_wal_size")
            && pgtune.diskWarning().contains("exceeds the disk limit " + limitText)
            && pgtune.diskWarning().contains(mount.resolve("cluster").toString()),
        pgtune + " / " + line);
    String conf = ConfExporter.conf(SessionExport.best(folder, "pgtune"));
    assertTrue(conf.contains("# TOO MUCH WAL FOR THE DISK: " + pgtune.diskWarning()), conf);
    assertTrue(
        folder.readSummary().results().stream()
            .filter(r -> r.track() != null)
            .allMatch(r -> r.diskWarning() == null),
        "the picks were held to the limit");
    assertEquals(Set.of(), SessionPostgres.differences(before, SessionPostgres.settings(cluster)));
    assertTrue(Files.notExists(filler));
  }

  private TuningSession session(SessionFolder folder, SessionInputs inputs, StringWriter out) {
    StringWriter sink = out == null ? new StringWriter() : out;
    return TuningSession.create(
        folder,
        inputs,
        cluster,
        new ProgressPrinter(new PrintWriter(sink, true), false),
        Progress.SILENT,
        Clock.systemUTC());
  }

  /** The default rules with another reserve. */
  private static Path rules(Path dir, String reserve) throws IOException {
    return Files.writeString(
        dir.resolve("rules-" + reserve + ".yaml"),
        Files.readString(Path.of("safety-rules/default.yaml"))
            .replace("  reserve: 1GB", "  reserve: " + reserve));
  }

  private static SessionInputs inputs(String rulesFile, String command) {
    Map<String, Object> m = new LinkedHashMap<>(TinyInputs.map(BUDGET, List.of("restart")));
    m.put("rulesFile", rulesFile);
    m.put("workload", Map.of("name", "command", "command", command));
    return SessionInputs.fromMap(m);
  }
}
