package org.pgknob.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.runs.Summary;

class LabelsTest {
  @Test
  void timesToTheMinuteInUtc() {
    assertEquals("2026-12-01 06:26 UTC", Labels.time(Instant.parse("2026-12-01T06:26:26.246Z")));
    assertEquals("2026-12-01 06:26 UTC", Labels.time("2026-12-01T06:26:26.246048735Z"));
    assertEquals("not a time", Labels.time("not a time"));
  }

  @Test
  void workloadInWords() {
    Map<String, Object> w = new LinkedHashMap<>();
    w.put("name", "tprocc");
    w.put("warehouses", 2);
    w.put("vus", 4);
    w.put("rampupSeconds", 5);
    w.put("windowSeconds", 15);
    w.put("allWarehouses", false);
    assertEquals(
        "TPROC-C, 2 warehouses (about 200 MB), 4 users, 5 s ramp-up, 15 s windows",
        Labels.workload(w));
    assertEquals(
        "your command: sh bench.sh",
        Labels.workload(Map.of("name", "command", "command", "sh bench.sh")));
  }

  @Test
  void budgetWithoutAPlannedTimeSaysOnlyTheTimeUsed() {
    assertEquals(
        "10 of 10 trials, 2 minutes used", Labels.budget(new Summary.Budget(10, 10, 0, 130)));
    assertEquals(
        "8 of 25 trials, 31 of 40 minutes", Labels.budget(new Summary.Budget(25, 8, 2400, 1860)));
  }

  @Test
  void restoredSaysWhatHappenedInWords() {
    assertEquals("original settings restored (2 settings changed back)", Labels.restored(2));
    assertEquals("original settings kept: the server ran with them at the end", Labels.restored(0));
  }
}
