package org.pgknob.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pgknob.runs.Summary;
import org.pgknob.session.SummaryFixture;
import org.pgknob.testing.Records;

class ConsoleResultTableTest {
  @Test
  void printsTheGoldenTable() {
    String expected =
        """
        Baseline: 3 runs, 2118.4 window TPS (CV 3.1%), 3.78 ms average latency (CV 3.5%)
        configuration  window TPS  TPS incl. checkpoint   NOPM  avg ms  p95 ms   TPS ratio (95% CI)  latency ratio (95% CI)  changed
        defaults           2290.7                2118.4   9500    3.78    9.10                    -                       -        0
        pgtune                  -                2301.0  10321    3.48    8.20    1.09x (0.97-1.21)       0.92x (0.81-1.04)        2
        reload/tps              -                2400.5  10800    3.33    7.90  1.13x (1.05-1.22) +     0.88x (0.80-0.97) +        2
        restart/tps             -                2710.3  12191    2.95    6.80  1.28x (1.20-1.36) +     0.78x (0.73-0.84) +        5

        Settings changed from the defaults:
          defaults: baseline
          pgtune: 1.09x TPS (0.97 to 1.21), within noise
            shared_buffers=6GB, work_mem=75730kB
          reload/tps: 1.13x TPS (1.05 to 1.22), gain
            checkpoint_completion_target=0.9, max_wal_size=4GB
          restart/tps: 1.28x TPS (1.20 to 1.36), gain
            jit=off, max_wal_size=8GB, random_page_cost=1.1, shared_buffers=1GB, work_mem=8MB
        """;
    assertEquals(
        expected, ConsoleResultTable.format(SummaryFixture.summary("2026-11-29T22-10-00")));
  }

  @Test
  void printsTheSessionsPooledRunNoiseBesideTheBaselinesOwnCv() {
    Summary s = SummaryFixture.summary("2026-11-29T22-10-00");
    Summary measured =
        Records.with(
            s,
            "measurements",
            java.util.List.of(
                new Summary.Measurement(
                    org.pgknob.runs.Goal.TPS, 0.108, 43, 50, 7, 0.036, 50, 0.2, null)));
    String table = ConsoleResultTable.format(measured);
    assertTrue(
        table.contains(
            "(CV 3.5%)\nRun-to-run noise: 10.8% TPS, pooled over 50 runs of 7 configurations (what"
                + " one run varies by; the baseline's CV rests on its few runs alone)\nconfiguration"),
        table);
    assertFalse(ConsoleResultTable.format(s).contains("Run-to-run noise"));
  }

  @Test
  void namesTheTrialsOtherProcessesDisturbed() {
    Summary s = SummaryFixture.summary("2026-11-29T22-10-00");
    Summary disturbed = Records.with(s, "disturbedTrials", java.util.List.of(4, 9));
    String table = ConsoleResultTable.format(disturbed);
    assertTrue(
        table.endsWith(
            "\nOther processes used over an eighth of this host's CPU during trials 4, 9: their"
                + " numbers may be low and the ratios less sure; measure again on a quiet machine"
                + " with pgknob compare.\n"),
        table);
    assertFalse(ConsoleResultTable.format(s).contains("Other processes"));
  }

  @Test
  void namesTheTrialsThatRanTheirWindowAgain() {
    Summary s = SummaryFixture.summary("2026-11-29T22-10-00");
    String table =
        ConsoleResultTable.format(Records.with(s, "repeatedTrials", java.util.List.of(3, 8)));
    assertTrue(
        table.endsWith(
            "\nTrials 3, 8 ran their window again once the host was quiet, after other processes"
                + " disturbed the first; trials.jsonl keeps what each first window measured.\n"),
        table);
    assertFalse(ConsoleResultTable.format(s).contains("ran their window again"));
  }

  @Test
  void saysUnderTheRowWhoseWalTheDiskCannotHoldWhy() {
    Summary s = SummaryFixture.summary("2026-11-29T22-10-00");
    String why = "the WAL it may keep, 8GB (max_wal_size), exceeds the disk limit 1.2GB (...)";
    Summary small =
        Records.with(
            s,
            "results",
            s.results().stream()
                .map(r -> r.name().equals("pgtune") ? r.withDiskWarning(why) : r)
                .toList());
    String table = ConsoleResultTable.format(small);
    assertTrue(
        table.contains(
            "    shared_buffers=6GB, work_mem=75730kB\n    too much WAL for the disk: "
                + why
                + "\n"),
        table);
    assertFalse(ConsoleResultTable.format(s).contains("too much WAL"));
  }

  @Test
  void ratioMarksClaimedGainsAndLosses() {
    assertEquals(
        "1.20x (1.10-1.30) +",
        ConsoleResultTable.ratio(new Summary.Ratio(1.2, 1.1, 1.3, 3), false));
    assertEquals(
        "1.20x (1.10-1.30) -", ConsoleResultTable.ratio(new Summary.Ratio(1.2, 1.1, 1.3, 3), true));
    assertEquals(
        "1.02x (0.90-1.10)", ConsoleResultTable.ratio(new Summary.Ratio(1.02, 0.9, 1.1, 3), false));
    assertEquals("-", ConsoleResultTable.ratio(null, false));
  }
}
