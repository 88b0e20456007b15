package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.runs.Summary;

class DiskWarningVerdictTest {
  private static final String WHY =
      "the WAL it may keep, 8GB (max_wal_size + wal_keep_size), exceeds the disk limit 1.2GB (0.5"
          + " x the WAL disk's 2.4GB of free space and WAL at the start, /srv/pg)";

  @Test
  void recommendingPgTuneStyleWithMoreWalThanTheDiskHoldsSaysToLowerItFirst() {
    Verdict v = Verdict.of(VerdictFactsFixture.of(List.of(pgtune(WHY))));
    assertEquals(Verdict.Kind.PGTUNE, v.kind());
    assertTrue(
        v.headline()
            .endsWith(
                " Lower max_wal_size first: " + WHY + "; a full WAL disk stops the" + " server."),
        v.headline());
  }

  @Test
  void recommendingPgTuneStyleWhoseWalFitsSaysNothingOfTheDisk() {
    Verdict v = Verdict.of(VerdictFactsFixture.of(List.of(pgtune(null))));
    assertEquals(Verdict.Kind.PGTUNE, v.kind());
    assertFalse(v.headline().contains("max_wal_size"), v.headline());
  }

  private static Summary.ResultRow pgtune(String diskWarning) {
    return new Summary.ResultRow(
        "pgtune",
        null,
        null,
        Map.of("max_wal_size", "8GB", "min_wal_size", "2GB", "work_mem", "16MB"),
        2000,
        null,
        4,
        9,
        new Summary.Ratio(1.2, 1.1, 1.3, 5),
        new Summary.Ratio(0.8, 0.75, 0.9, 5),
        List.of(7),
        "gain",
        null,
        0,
        0,
        null,
        diskWarning);
  }
}
