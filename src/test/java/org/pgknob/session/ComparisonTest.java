package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.Json;
import org.pgknob.PgknobException;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.server.ServerSetting;
import org.pgknob.testing.Records;
import org.pgknob.workload.tprocc.TproccSpec;

class ComparisonTest {
  @TempDir Path dir;

  private static final List<ServerSetting> SERVER =
      List.of(
          setting("work_mem", "user"),
          setting("shared_buffers", "postmaster"),
          setting("max_wal_size", "sighup"),
          setting("block_size", "internal"));

  private static ServerSetting setting(String name, String context) {
    return new ServerSetting(
        name, "1", null, "integer", context, null, null, null, "1", "1", "default", null, false);
  }

  @Test
  void candidatesOfASessionAreItsConfigurationsOtherThanTheDefaultsEachOnce() {
    SessionFolder folder = SessionExportTest.finishedSession(dir);
    Summary summary = folder.readSummary();
    List<Summary.ResultRow> rows = new ArrayList<>(summary.results());
    Summary.ResultRow restartTps = rows.get(3);
    rows.add(
        new Summary.ResultRow(
            "restart/latency",
            Track.RESTART,
            Goal.LATENCY,
            restartTps.settings(),
            0,
            null,
            0,
            0,
            null,
            null,
            List.of(),
            "not validated",
            null,
            0,
            0,
            null));
    folder.writeSummary(Records.with(summary, "results", rows));

    List<Comparison.Candidate> candidates = Comparison.fromSession(folder);
    assertEquals(
        List.of("pgtune", "reload/tps", "restart/tps"),
        candidates.stream().map(Comparison.Candidate::name).toList());
    assertEquals(restartTps.settings(), candidates.get(2).settings());
  }

  @Test
  void aSessionThatNeverMeasuredPgtuneStillComparesWithItComputedOnTheServer() {
    SessionFolder folder = SessionExportTest.finishedSession(dir);
    Summary s = folder.readSummary();
    List<Summary.ResultRow> rows =
        s.results().stream().filter(r -> !r.name().equals("pgtune")).toList();
    folder.writeSummary(Records.with(s, "results", rows));
    List<Comparison.Candidate> candidates = Comparison.fromSession(folder);
    Comparison.Candidate pgtune = candidates.get(candidates.size() - 1);
    assertEquals("pgtune", pgtune.name());
    assertEquals(Map.of(), pgtune.settings(), "empty: computed when the comparison runs");
  }

  @Test
  void aSessionsExportedPgTuneFileIsThePgTuneRowOnce() throws Exception {
    SessionFolder folder = SessionExportTest.finishedSession(dir);
    String exported = org.pgknob.report.ConfExporter.conf(SessionExport.best(folder, "pgtune"));
    Path pgtune = Files.writeString(dir.resolve("pgtune.conf"), exported);
    Path again = Files.writeString(dir.resolve("again.conf"), exported);
    Path pick =
        Files.writeString(
            dir.resolve("pick.conf"),
            org.pgknob.report.ConfExporter.conf(SessionExport.best(folder, "restart/tps")));
    List<String> names =
        Comparison.fromConfFiles(List.of(pick, pgtune, again)).stream()
            .map(Comparison.Candidate::name)
            .toList();
    assertEquals(List.of("config:pick.conf", "pgtune", "config:again.conf"), names);
  }

  @Test
  void confFilesBecomeCandidatesNamedByFile() throws Exception {
    Path a = Files.writeString(dir.resolve("a.conf"), "work_mem = '16MB'  # sorts in memory\n");
    Files.createDirectories(dir.resolve("other"));
    Path a2 = Files.writeString(dir.resolve("other/a.conf"), "shared_buffers 256MB\n");
    List<Comparison.Candidate> candidates = Comparison.fromConfFiles(List.of(a, a2));
    assertEquals(
        List.of(
            new Comparison.Candidate(
                "config:a.conf", Map.of("work_mem", "16MB"), Map.of("work_mem", a + " line 1")),
            new Comparison.Candidate(
                "config:a.conf#2",
                Map.of("shared_buffers", "256MB"),
                Map.of("shared_buffers", a2 + " line 1"))),
        candidates);

    Path empty = Files.writeString(dir.resolve("empty.conf"), "# nothing\n");
    PgknobException e =
        assertThrows(PgknobException.class, () -> Comparison.fromConfFiles(List.of(empty)));
    assertEquals(
        empty + " sets nothing, so it would only measure the defaults again", e.getMessage());
    e =
        assertThrows(
            PgknobException.class,
            () -> Comparison.fromConfFiles(List.of(dir.resolve("missing.conf"))));
    assertEquals(
        "give a postgresql.conf fragment that exists and is readable", e.fix(), e.oneLine());
  }

  @Test
  void refusesSettingsTheServerDoesNotHaveOrLetChange() {
    PgknobException e =
        assertThrows(
            PgknobException.class,
            () ->
                Comparison.checkNames(
                    List.of(new Comparison.Candidate("config:a.conf", Map.of("wrk_mem", "1MB"))),
                    SERVER));
    assertEquals(
        "config:a.conf sets wrk_mem, which this server does not have (fix the name or remove that"
            + " line)",
        e.oneLine());
    e =
        assertThrows(
            PgknobException.class,
            () ->
                Comparison.checkNames(
                    List.of(new Comparison.Candidate("config:b.conf", Map.of("block_size", "4"))),
                    SERVER));
    assertEquals(
        "config:b.conf sets block_size, which is fixed when the server is built", e.getMessage());
    Comparison.checkNames(
        List.of(new Comparison.Candidate("config:c.conf", Map.of("WORK_MEM", "8MB"))), SERVER);
  }

  @Test
  void planRunsTheBaselineThenInterleavedRoundsWithTheSettingsStored() throws Exception {
    List<Comparison.Candidate> candidates =
        List.of(
            new Comparison.Candidate("config:a.conf", Map.of("work_mem", "16MB")),
            new Comparison.Candidate(
                "config:b.conf", Map.of("shared_buffers", "256MB", "max_wal_size", "2GB")));
    SessionPlan plan = Comparison.plan(candidates, SERVER, 2);
    assertEquals(
        List.of(
            "baseline 1/3",
            "baseline 2/3",
            "baseline 3/3",
            "validation round 1/2 baseline",
            "validation round 1/2 config:a.conf",
            "validation round 1/2 config:b.conf",
            "validation round 2/2 baseline",
            "validation round 2/2 config:b.conf",
            "validation round 2/2 config:a.conf"),
        plan.steps().stream().map(Step::label).toList());
    assertEquals(
        List.of(Track.RELOAD, Track.RESTART),
        plan.validations().stream().map(SessionPlan.Validation::track).toList());

    SessionPlan read =
        Json.mapper().readValue(Json.mapper().writeValueAsString(plan), SessionPlan.class);
    assertEquals(plan, read);
    assertEquals(
        Map.of("shared_buffers", "256MB", "max_wal_size", "2GB"),
        read.validation("config:b.conf").orElseThrow().settings());

    SessionInputs inputs =
        Comparison.inputs(
            plan, Map.of("seed", 7L), new Comparison.Workload(new TproccSpec(1, 4, false), 1, 2));
    assertEquals(7, inputs.seed());
    assertEquals(2, inputs.windowSeconds());
    assertEquals(new TproccSpec(1, 4, false), inputs.workload());
    assertEquals(List.of(Track.RELOAD, Track.RESTART), inputs.tracks());
    assertEquals(plan.totalTrials(), Budget.parse(inputs.budget()).trials());

    PgknobException e =
        assertThrows(PgknobException.class, () -> Comparison.plan(candidates, SERVER, 1));
    assertEquals("--rounds must be at least 2, but got 1", e.getMessage());
  }
}
