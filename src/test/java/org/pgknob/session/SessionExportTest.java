package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.Json;
import org.pgknob.PgknobException;
import org.pgknob.report.BestConfig;
import org.pgknob.report.ConfFile;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.testing.Records;

class SessionExportTest {
  @TempDir Path runs;

  /** A finished session folder: state, summary, three baselines of 2000 TPS and a sweep. */
  static SessionFolder finishedSession(Path runs) {
    SessionFolder folder =
        SessionFolder.create(
            runs, Clock.fixed(Instant.parse("2026-11-29T22:10:00Z"), ZoneOffset.UTC));
    SessionState state = SessionFolderTest.state(folder.id(), SessionState.Status.FINISHED);
    folder.writeState(
        new SessionState(
            state.id(),
            state.pgknobVersion(),
            state.status(),
            state.createdAt(),
            state.updatedAt(),
            state.inputs(),
            state.seed(),
            state.machine(),
            state.postgresVersion(),
            state.target(),
            state.dataDirectory(),
            state.originalSettings(),
            Map.of(
                "shared_buffers", new SettingFact("128MB", "restart"),
                "work_mem", new SettingFact("4MB", "reload"),
                "max_wal_size", new SettingFact("1GB", "reload"),
                "checkpoint_completion_target", new SettingFact("0.9", "reload")),
            state.plan(),
            state.progress()));
    folder.writeSummary(SummaryFixture.summary(folder.id()));
    TrialLog log = folder.trials();
    for (int k = 1; k <= 3; k++) {
      log.append(
          Trials.ok(
              k,
              "baseline",
              "reload",
              "baseline " + k + "/3",
              Map.of(),
              Map.of(),
              1990 + 5 * k,
              4));
    }
    log.append(
        Trials.ok(
            4,
            "sweep",
            "restart",
            "sweep shared_buffers=1024MB",
            Map.of("shared_buffers", 1024L),
            Map.of("shared_buffers", "1024MB"),
            2360,
            3.2));
    return folder;
  }

  @Test
  void bestTakesDefaultsFromTheSessionAndEffectsFromTheSweeps() {
    SessionFolder folder = finishedSession(runs);
    BestConfig best = SessionExport.best(folder, "restart/tps");
    assertEquals("1.28x TPS (1.20 to 1.36), gain", best.verdict());
    BestConfig.Setting sb =
        best.settings().stream()
            .filter(s -> s.name().equals("shared_buffers"))
            .findFirst()
            .orElseThrow();
    // 2360 / mean(1995, 2000, 2005) = +18.0%; tps CV 0.031 -> 5.8x the noise
    assertEquals(
        new BestConfig.Setting(
            "shared_buffers",
            "1GB",
            "128MB",
            "restart",
            "sweep: +18.0% TPS at this value (5.8x the noise)"),
        sb);
    BestConfig.Setting wm =
        best.settings().stream().filter(s -> s.name().equals("work_mem")).findFirst().orElseThrow();
    assertEquals("sweep: within noise", wm.effect());
    BestConfig.Setting jit =
        best.settings().stream().filter(s -> s.name().equals("jit")).findFirst().orElseThrow();
    assertEquals("", jit.defaultValue());
    assertEquals("", jit.effect());
  }

  @Test
  void writeAllWritesConfSqlAndJsonForEachOptimum() throws Exception {
    SessionFolder folder = finishedSession(runs);
    List<Path> files = SessionExport.writeAll(folder);
    assertEquals(6, files.size());
    Path conf = folder.bestFile(Track.RESTART, Goal.TPS, "conf");
    assertTrue(files.contains(conf));
    assertEquals(
        SummaryFixture.summary(folder.id()).results().get(3).settings(),
        ConfFile.parse(conf.toString(), Files.readString(conf)));
    assertTrue(Files.exists(folder.bestFile(Track.RELOAD, Goal.TPS, "sql")));
  }

  @Test
  void missingRowNamesTheRowsThereAre() {
    SessionFolder folder = finishedSession(runs);
    PgknobException e =
        assertThrows(PgknobException.class, () -> SessionExport.best(folder, "restart/latency"));
    assertEquals(
        "session 2026-11-29T22-10-00 has no restart/latency result (it has: defaults, pgtune,"
            + " reload/tps, restart/tps) (pick one of those, or resume the session to finish it)",
        e.oneLine());
  }

  /** A session stopped before any result: nothing to pick, so the fix is the resume. */
  @Test
  void aSessionWithoutResultsSaysToResumeIt() throws Exception {
    SessionFolder folder = finishedSession(runs);
    Path summary = folder.file(SessionFolder.SUMMARY_FILE);
    var tree =
        (com.fasterxml.jackson.databind.node.ObjectNode) Json.mapper().readTree(summary.toFile());
    tree.putArray("results");
    Json.mapper().writeValue(summary.toFile(), tree);
    PgknobException e =
        assertThrows(PgknobException.class, () -> SessionExport.best(folder, "restart/tps"));
    assertEquals(
        "session 2026-11-29T22-10-00 has no restart/tps result (it has no results yet) (go on with:"
            + " pgknob resume "
            + folder.dir()
            + ")",
        e.oneLine());
  }

  @Test
  void aValueTheServerRunsAlreadyIsNotExportedNorCounted() {
    SessionFolder folder = finishedSession(runs);
    // reload/tps: max_wal_size 4GB and checkpoint_completion_target 0.9, which is the default
    BestConfig best = SessionExport.best(folder, "reload/tps");
    assertEquals(Map.of("max_wal_size", "4GB"), best.values());
  }

  @Test
  void memoryValuesAreRoundedDownWithoutAKnownPrediction() {
    SessionFolder folder = finishedSession(runs);
    BestConfig best = SessionExport.best(folder, "pgtune");
    assertEquals("73MB", best.values().get("work_mem"), "75730kB, never rounded up to 74MB");
    assertEquals("6GB", best.values().get("shared_buffers"));
    assertTrue(
        best.about().stream().anyMatch(l -> l.startsWith("Values are rounded as a DBA writes")),
        best.about()::toString);
  }

  @Test
  void numbersAreWrittenAsADbaWritesThemAndOneThatRoundsToTheServersOwnIsLeftOut() {
    SessionFolder folder = finishedSession(runs);
    Summary s = folder.readSummary();
    List<Summary.ResultRow> rows = new java.util.ArrayList<>(s.results());
    rows.set(
        3,
        Records.with(
            rows.get(3),
            "settings",
            Map.of(
                "random_page_cost", "1.63335",
                "checkpoint_timeout", "331s",
                "checkpoint_completion_target", "0.8971")));
    folder.writeSummary(Records.with(s, "results", rows));
    BestConfig best = SessionExport.best(folder, "restart/tps");
    assertEquals(Map.of("random_page_cost", "1.6", "checkpoint_timeout", "330s"), best.values());
    assertTrue(
        best.about().stream().anyMatch(l -> l.startsWith("Values are rounded as a DBA writes")),
        best.about()::toString);

    rows.set(
        3, Records.with(rows.get(3), "settings", Map.of("checkpoint_completion_target", "0.8971")));
    folder.writeSummary(Records.with(s, "results", rows));
    PgknobException e =
        assertThrows(PgknobException.class, () -> SessionExport.best(folder, "restart/tps"));
    assertTrue(
        e.getMessage().contains("is the server's own settings as a DBA writes them"),
        e.getMessage());
  }

  @Test
  void theHeaderSaysMachineWorkloadDateVersionAndSession() {
    SessionFolder folder = finishedSession(runs);
    String conf = org.pgknob.report.ConfExporter.conf(SessionExport.best(folder, "restart/tps"));
    assertTrue(conf.contains("# Machine: 2 cores, 24.0 GiB RAM; storage: ssd\n"), conf);
    assertTrue(conf.contains("# Workload: TPROC-C, 1 warehouse (about 100 MB), 4 users\n"), conf);
    assertTrue(conf.contains("# Measured 2026-11-29 22:10 UTC by pgknob "), conf);
    assertTrue(conf.contains("; session 2026-11-29T22-10-00\n"), conf);
    assertTrue(conf.contains("# Validated against the defaults: 1.28x TPS (1.20 to 1.36)"), conf);
  }

  @Test
  void aPickIdenticalToTheServersSettingsIsNoChangeAndNotExported() throws Exception {
    SessionFolder folder = finishedSession(runs);
    Summary s = folder.readSummary();
    List<Summary.ResultRow> rows = new java.util.ArrayList<>(s.results());
    Summary.ResultRow reload = rows.get(2);
    rows.set(2, Records.with(reload, "settings", Map.of("checkpoint_completion_target", "0.9")));
    folder.writeSummary(Records.with(s, "results", rows));
    PgknobException e =
        assertThrows(PgknobException.class, () -> SessionExport.best(folder, "reload/tps"));
    assertTrue(e.getMessage().startsWith("no change found: the reload/tps pick"), e.getMessage());
    List<Path> files = SessionExport.writeAll(folder);
    assertEquals(3, files.size(), files::toString);
    assertTrue(Files.notExists(folder.bestFile(Track.RELOAD, Goal.TPS, "conf")));
  }
}
