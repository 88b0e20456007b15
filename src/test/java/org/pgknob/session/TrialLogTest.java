package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.PgknobException;
import org.pgknob.server.ResourceSummary;
import org.pgknob.trial.DisturbedWindow;
import org.pgknob.trial.Status;
import org.pgknob.trial.TrialResult;

class TrialLogTest {
  @TempDir Path dir;

  private static TrialResult trial(int n) {
    return Trials.ok(
        n,
        "sweep",
        "restart",
        "sweep shared_buffers=" + (128 * n) + "MB",
        Map.of("shared_buffers", 128L * n, "random_page_cost", 1.1),
        Map.of("shared_buffers", 128 * n + "MB"),
        1000 + n,
        5.5);
  }

  @Test
  void appendedTrialsReadBackEqual() {
    TrialLog log = new TrialLog(dir.resolve("trials.jsonl"));
    log.append(trial(1));
    log.append(Trials.failed(2, "bayes", "bayes restart 1/4", Status.CRASHED));
    TrialLog.Contents c = new TrialLog(log.file()).read();
    assertEquals(2, c.trials().size());
    assertEquals(0, c.truncatedLines());
    assertEquals(trial(1), c.trials().get(0));
    assertEquals(Status.CRASHED, c.trials().get(1).status());
    assertEquals(3, c.nextTrialNumber());
  }

  @Test
  void aSetAsideDisturbedWindowReadsBackAndATrialThatRanOnceWritesNone() throws Exception {
    TrialLog log = new TrialLog(dir.resolve("trials.jsonl"));
    TrialResult repeated =
        trial(1).withDisturbedWindow(new DisturbedWindow(1541.5, 6.25, 1.04, 2, 12.3));
    log.append(repeated);
    log.append(trial(2));

    TrialLog.Contents c = new TrialLog(log.file()).read();
    assertEquals(repeated, c.trials().get(0));
    assertEquals(1541.5, c.trials().get(0).disturbedWindow().tps());
    assertEquals(null, c.trials().get(1).disturbedWindow());
    String second = Files.readAllLines(log.file()).get(1);
    assertFalse(second.contains("disturbedWindow"), second);
  }

  @Test
  void missingFileIsAnEmptyLog() {
    TrialLog.Contents c = new TrialLog(dir.resolve("trials.jsonl")).read();
    assertTrue(c.trials().isEmpty());
    assertEquals(1, c.nextTrialNumber());
  }

  @Test
  void lastLineCutByAKillIsCountedThenCutOffBeforeTheNextAppend() throws Exception {
    Path file = dir.resolve("trials.jsonl");
    new TrialLog(file).append(trial(1));
    String whole = Files.readString(file);
    new TrialLog(file).append(trial(2));
    // a kill in the middle of writing trial 2: only its first half reached the disk
    Files.writeString(
        file, whole + whole.substring(0, whole.length() / 2).replace("\"trial\":1", "\"trial\":2"));

    TrialLog.Contents c = new TrialLog(file).read();
    assertEquals(1, c.trials().size());
    assertEquals(1, c.truncatedLines());

    TrialLog resumed = new TrialLog(file);
    resumed.append(trial(2));
    TrialLog.Contents after = resumed.read();
    assertEquals(2, after.trials().size());
    assertEquals(0, after.truncatedLines());
    assertEquals(trial(2), after.trials().get(1));
  }

  @Test
  void wholeRecordMissingOnlyItsNewlineIsKept() throws Exception {
    Path file = dir.resolve("trials.jsonl");
    TrialLog log = new TrialLog(file);
    log.append(trial(1));
    String line = Files.readString(file);
    Files.writeString(file, line.strip(), StandardCharsets.UTF_8);
    TrialLog resumed = new TrialLog(file);
    assertEquals(1, resumed.read().trials().size());
    resumed.append(trial(2));
    assertEquals(2, resumed.read().trials().size());
  }

  @Test
  void damagedLineInTheMiddleIsRefusedWithItsLineNumber() throws Exception {
    Path file = dir.resolve("trials.jsonl");
    TrialLog log = new TrialLog(file);
    log.append(trial(1));
    Files.writeString(file, "{not json\n", StandardOpenOption.APPEND);
    log.append(trial(3));
    PgknobException e = assertThrows(PgknobException.class, () -> log.read());
    assertTrue(e.getMessage().contains("line 2 is not a trial record"), e.getMessage());
  }

  @Test
  void foreignCpuFiguresReadBackAndOldLinesWithoutThemStillRead() throws Exception {
    TrialLog log = new TrialLog(dir.resolve("trials.jsonl"));
    TrialResult disturbed = Trials.withForeignCpu(trial(1), 1.3, 2);
    log.append(disturbed);
    String line = Files.readString(log.file()).strip();
    assertTrue(
        line.contains("\"foreignCpuAvgCores\":1.3,\"foreignCpuPeakCores\":1.6")
            && line.contains("\"hostCores\":2"),
        line);
    // a line as pgknob wrote it before it measured foreign CPU
    String old =
        line.replaceAll(",\"foreignCpuAvgCores\":[0-9.]+", "")
            .replaceAll(",\"foreignCpuPeakCores\":[0-9.]+", "")
            .replaceAll(",\"hostCores\":[0-9]+", "")
            .replace("\"trial\":1,", "\"trial\":2,");
    assertTrue(!old.contains("hostCores") && !old.contains("foreignCpu"), old);
    Files.writeString(log.file(), old + "\n", StandardOpenOption.APPEND);

    TrialLog.Contents c = new TrialLog(log.file()).read();
    assertEquals(disturbed, c.trials().get(0));
    assertTrue(c.trials().get(0).resources().disturbedByOtherProcesses());
    ResourceSummary before = c.trials().get(1).resources();
    assertEquals(0, before.hostCores());
    assertEquals(0.0, before.foreignCpuAvgCores());
    assertEquals(disturbed.resources().rssAvgBytes(), before.rssAvgBytes());
    assertFalse(before.disturbedByOtherProcesses(), "not measured is not disturbed");
  }
}
