package org.pgknob.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.PgknobException;
import org.pgknob.trial.Phase;
import org.pgknob.trial.Status;

class SessionLoaderTest {
  @TempDir Path tmp;

  @Test
  void readsEveryTrialSummaryAndSessionOfARecordedFolder() {
    SessionData data = SessionLoader.load(Fixtures.SESSION_SMALL);
    assertEquals(34, data.trials().size());
    assertEquals(0, data.incompleteLines());
    assertNotNull(data.summary());
    assertEquals("2026-11-29T22-10-00", data.sessionId());
    assertEquals(3, data.okPhase(Phase.BASELINE).size());
    assertEquals(Status.MEMORY_GUARD, data.trials().get(20).status());
    assertTrue(data.problems().isEmpty(), data.problems().toString());
    // recorded before pgknob measured other processes' CPU: loads, and no trial is disturbed
    assertTrue(
        data.trials().stream()
            .allMatch(
                t -> t.resources().hostCores() == 0 && !t.resources().disturbedByOtherProcesses()));
  }

  @Test
  void countsACutOffLastLineAsIncompleteAndKeepsTheRest() throws IOException {
    SessionData data = SessionLoader.load(Fixtures.truncated(tmp.resolve("run")));
    assertEquals(1, data.incompleteLines());
    assertEquals(0, data.unreadableLines());
    assertEquals(33, data.trials().size());
  }

  @Test
  void countsADamagedLineBeforeTheLastAsUnreadableNotIncomplete() throws IOException {
    Path dir = Fixtures.copy(tmp.resolve("run"));
    Path trials = dir.resolve("trials.jsonl");
    Files.writeString(trials, "{\"trial\": oops\n" + Files.readString(trials));
    SessionData data = SessionLoader.load(dir);
    assertEquals(0, data.incompleteLines());
    assertEquals(1, data.unreadableLines());
    assertEquals(34, data.trials().size());
  }

  @Test
  void readsASessionWithoutSummaryOrSessionFile() throws IOException {
    Path dir = Fixtures.withoutSummary(tmp.resolve("run"));
    Files.delete(dir.resolve("session.json"));
    SessionData data = SessionLoader.load(dir);
    assertNull(data.summary());
    assertEquals("run", data.sessionId());
    assertFalse(data.problems().isEmpty());
  }

  @Test
  void refusesAFolderThatIsNotASessionInOneLineNamingIt() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("photos"));
    Files.writeString(dir.resolve("cat.jpg"), "meow");
    PgknobException e = assertThrows(PgknobException.class, () -> SessionLoader.load(dir));
    assertTrue(e.oneLine().contains(dir.toString()), e.oneLine());
    assertTrue(e.oneLine().contains("is not a session"), e.oneLine());
    assertFalse(e.oneLine().contains("\n"));
  }

  @Test
  void refusesAMissingFolder() {
    PgknobException e =
        assertThrows(PgknobException.class, () -> SessionLoader.load(tmp.resolve("nope")));
    assertTrue(e.oneLine().contains("nope"), e.oneLine());
  }
}
