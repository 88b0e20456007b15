package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;

/**
 * The verdict calls a ratio a gain by the rule of the results table ({@link
 * Summary.ResultRow#claimsGain}): beyond noise and at least what its validation could detect. A
 * 30-minute session's headline said "Apply best-reload-latency.conf: 1.03x TPS against the defaults
 * (1.00 to 1.06)" while its own table read "below what this validation can detect (4%)".
 */
class VerdictClaimRuleTest {
  private static final Map<String, String> PICK = Map.of("checkpoint_timeout", "423s");
  private static final Map<String, String> PGTUNE = Map.of("shared_buffers", "6GB");

  /** The 30-minute session's figures: both excluded 1, or nearly, by 3% and 2%. */
  private static final Summary.Ratio PICK_SMALL = new Summary.Ratio(1.029, 1.003, 1.055, 7);

  private static final Summary.Ratio PGTUNE_WITHIN = new Summary.Ratio(1.024, 0.998, 1.050, 7);

  @Test
  void aPickBelowWhatItsValidationCanDetectIsNoGainForTheHeadline() {
    Verdict v =
        Verdict.of(
            facts(
                Map.of("reload/latency", new Summary.Ratio(1.00, 0.98, 1.03, 7)),
                row("reload/latency", Track.RELOAD, PICK, PICK_SMALL, 0.039),
                row("pgtune", null, PGTUNE, PGTUNE_WITHIN, 0.039)));

    assertEquals(Verdict.Kind.NOTHING, v.kind(), v.headline());
    assertTrue(
        v.details()
            .contains(
                "reload/latency against the defaults: 1.03x TPS (1.00 to 1.06), below what this"
                    + " validation can detect (4%) over 7 pairs; against PGTune-style: 1.00x TPS"
                    + " (0.98 to 1.03), within noise over 7 pairs"),
        v.details().toString());
  }

  @Test
  void theSameRatioIsAGainWhereTheValidationCouldDetectIt() {
    Verdict v =
        Verdict.of(
            facts(
                Map.of("reload/latency", new Summary.Ratio(1.00, 0.98, 1.03, 7)),
                row("reload/latency", Track.RELOAD, PICK, PICK_SMALL, 0.02),
                row("pgtune", null, PGTUNE, PGTUNE_WITHIN, 0.02)));

    assertEquals(Verdict.Kind.APPLY, v.kind(), v.headline());
    assertTrue(v.headline().startsWith("Apply best-reload-latency.conf: 1.03x TPS"), v.headline());
  }

  @Test
  void aPickAheadOfPgTuneByLessThanItCanDetectLeavesPgTuneTheVerdict() {
    Verdict v =
        Verdict.of(
            facts(
                Map.of("restart/tps", new Summary.Ratio(1.03, 1.01, 1.05, 7)),
                row(
                    "restart/tps",
                    Track.RESTART,
                    PICK,
                    new Summary.Ratio(1.15, 1.10, 1.20, 7),
                    0.04),
                row("pgtune", null, PGTUNE, new Summary.Ratio(1.11, 1.06, 1.16, 7), 0.04)));

    assertEquals(Verdict.Kind.PGTUNE, v.kind(), v.headline());
  }

  private static Summary.ResultRow row(
      String name,
      Track track,
      Map<String, String> settings,
      Summary.Ratio tps,
      double detectableGain) {
    return VerdictFactsFixture.row(name, track, settings, tps, detectableGain);
  }

  private static VerdictFacts facts(
      Map<String, Summary.Ratio> againstPgTune, Summary.ResultRow... rows) {
    return new VerdictFacts(
        "runs/x",
        Goal.TPS,
        List.of(rows),
        againstPgTune,
        Set.of("shared_buffers"),
        Map.of(
            "reload/latency", "best-reload-latency.conf", "restart/tps", "best-restart-tps.conf"),
        Optional.empty(),
        "",
        "",
        false);
  }
}
