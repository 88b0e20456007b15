package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.pgknob.PgknobException;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.testing.Records;

class SessionFolderTest {
  @TempDir Path runs;

  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-11-29T22:10:00Z"), ZoneOffset.UTC);

  static SessionState state(String id, SessionState.Status status) {
    SessionPlan plan =
        new SessionPlan(
            3,
            List.of(
                new SessionPlan.SweepKnob(
                    "shared_buffers", Track.RESTART, "MB", List.of(128L, 1024L))),
            List.of(
                new SessionPlan.BayesTrack(Track.RELOAD, 2),
                new SessionPlan.BayesTrack(Track.RESTART, 2)),
            List.of(new SessionPlan.Validation("restart/tps", Track.RESTART)),
            3);
    return new SessionState(
        id,
        "0.1.0",
        status,
        Instant.parse("2026-11-29T22:10:00Z"),
        Instant.parse("2026-11-29T22:10:00Z"),
        Map.of("budget", "40", "tracks", List.of("reload", "restart"), "objective", "tps"),
        42,
        new Summary.Machine(2, 24L << 30, "ssd", "Linux"),
        "18.1",
        "jdbc:postgresql://db:5432/postgres?user=app&password=s3cret",
        "/var/lib/postgresql/18/main",
        SessionFolder.RESTORE_FILE,
        Map.of("shared_buffers", new SettingFact("128MB", "restart")),
        plan,
        new SessionState.Progress("sweep", 4, plan.totalTrials(), ""));
  }

  @Test
  void createNamesTheFolderByLocalTimeAndNeverReusesOne() {
    SessionFolder first = SessionFolder.create(runs, CLOCK);
    SessionFolder second = SessionFolder.create(runs, CLOCK);
    SessionFolder third = SessionFolder.create(runs, CLOCK);
    assertEquals("2026-11-29T22-10-00", first.id());
    assertEquals("2026-11-29T22-10-00-2", second.id());
    assertEquals("2026-11-29T22-10-00-3", third.id());
    assertTrue(Files.isDirectory(third.dir()));
  }

  @Test
  void sessionStateRoundTripsWithoutThePassword() throws Exception {
    SessionFolder folder = SessionFolder.create(runs, CLOCK);
    SessionState state = state(folder.id(), SessionState.Status.RUNNING);
    folder.writeState(state);
    String json = Files.readString(folder.file(SessionFolder.SESSION_FILE));
    assertFalse(json.contains("s3cret"), json);
    assertTrue(json.contains("\"status\" : \"running\""), json);
    assertFalse(
        Files.list(folder.dir()).anyMatch(p -> p.getFileName().toString().endsWith(".tmp")),
        "no temporary file is left behind");

    SessionState back = SessionFolder.open(folder.dir()).readState();
    assertEquals(state, back);
    assertEquals(state.plan().steps(), back.plan().steps());
    assertEquals("jdbc:postgresql://db:5432/postgres?user=app&password=***", back.target());
  }

  @Test
  void aPlansWindowRoundTripsAndAPlanFromBeforeItReadsAsCountingTrialsAsTheyRan() throws Exception {
    SessionFolder folder = SessionFolder.create(runs, CLOCK);
    SessionState base = state(folder.id(), SessionState.Status.RUNNING);
    SessionPlan plan =
        Records.with(
            base.plan(),
            "validating",
            new SessionPlan.Validating(
                Goal.TPS, 0.03, 3, 42, new SessionPlan.WallTime(720, null, 3, 30.0)));
    folder.writeState(Records.with(base, "plan", plan));
    assertEquals(plan, SessionFolder.open(folder.dir()).readState().plan());

    Path file = folder.file(SessionFolder.SESSION_FILE);
    String json = Files.readString(file);
    String older = json.replaceAll(",\\s*\"windowSeconds\"\\s*:\\s*30\\.0", "");
    assertFalse(older.contains("windowSeconds"), older);
    Files.writeString(file, older);
    assertEquals(
        new SessionPlan.WallTime(720, null, 3),
        SessionFolder.open(folder.dir()).readState().plan().validating().wallTime());
  }

  @Test
  void passwordsInUserInfoAreRemovedToo() {
    assertEquals(
        "postgresql://app:***@db:5432/postgres",
        SessionState.withoutPassword("postgresql://app:hunter2@db:5432/postgres"));
  }

  @Test
  void summaryRoundTrips() {
    SessionFolder folder = SessionFolder.create(runs, CLOCK);
    Summary s = SummaryFixture.summary(folder.id());
    folder.writeSummary(s);
    assertEquals(s, folder.readSummary());
  }

  @Test
  void summaryKeepsTheTrialsOtherProcessesDisturbed() throws Exception {
    SessionFolder folder = SessionFolder.create(runs, CLOCK);
    Summary plain = SummaryFixture.summary(folder.id());
    folder.writeSummary(plain);
    assertFalse(
        Files.readString(folder.dir().resolve("summary.json")).contains("disturbedTrials"),
        "left out when none, as in summaries from older versions");
    Summary s = Records.with(plain, "disturbedTrials", List.of(7, 12));
    folder.writeSummary(s);
    assertEquals(s, folder.readSummary());
    assertTrue(
        Files.readString(folder.dir().resolve("summary.json"))
            .replaceAll("\\s", "")
            .contains("\"disturbedTrials\":[7,12]"));
  }

  @Test
  void refusesAFolderThatIsNotASession() throws Exception {
    Path plain = Files.createDirectory(runs.resolve("holiday-photos"));
    PgknobException e = assertThrows(PgknobException.class, () -> SessionFolder.open(plain));
    assertEquals(
        plain
            + " is not a pgknob session: it has no session.json (give a folder made by pgknob"
            + " tune, such as runs/2026-11-29T22-10-00)",
        e.oneLine());
    assertThrows(PgknobException.class, () -> SessionFolder.open(runs.resolve("missing")));
  }

  @Test
  void refusesADamagedSessionFile() throws Exception {
    SessionFolder folder = SessionFolder.create(runs, CLOCK);
    Files.writeString(folder.file(SessionFolder.SESSION_FILE), "{\"id\": \"x\", \"status\": ");
    PgknobException e = assertThrows(PgknobException.class, () -> SessionFolder.open(folder.dir()));
    assertTrue(e.getMessage().contains("is damaged"), e.getMessage());
  }

  @Test
  void refusesToResumeAFinishedSession() {
    SessionFolder folder = SessionFolder.create(runs, CLOCK);
    folder.writeState(state(folder.id(), SessionState.Status.FINISHED));
    PgknobException e =
        assertThrows(PgknobException.class, () -> SessionFolder.openForResume(folder.dir()));
    assertTrue(e.getMessage().startsWith("session 2026-11-29T22-10-00 already finished"));
    folder.writeState(state(folder.id(), SessionState.Status.STOPPED));
    assertEquals(folder.id(), SessionFolder.openForResume(folder.dir()).id());
  }

  @Test
  void refusesToResumeAgainstAChangedTarget() {
    SessionState s = state("2026-11-29T22-10-00", SessionState.Status.RUNNING);
    s.checkSameTarget("18.1", "/var/lib/postgresql/18/main");
    PgknobException version =
        assertThrows(
            PgknobException.class, () -> s.checkSameTarget("18.2", "/var/lib/postgresql/18/main"));
    assertEquals(
        "the target changed since session 2026-11-29T22-10-00 started: PostgreSQL 18.1 then, 18.2"
            + " now (resume against the same server, or start a new session with pgknob tune)",
        version.oneLine());
    PgknobException data =
        assertThrows(PgknobException.class, () -> s.checkSameTarget("18.1", "/srv/other"));
    assertTrue(data.getMessage().contains("data folder /var/lib/postgresql/18/main then"));
  }

  @Test
  void summaryMissingSaysTheSessionHasNoResultsYet() {
    SessionFolder folder = SessionFolder.create(runs, CLOCK);
    PgknobException e = assertThrows(PgknobException.class, folder::readSummary);
    assertTrue(e.getMessage().contains("has no summary.json yet"));
  }
}
