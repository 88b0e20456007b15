package org.pgknob.session;

import java.util.Locale;
import org.pgknob.runs.Track;
import org.pgknob.trial.Phase;

/**
 * One planned trial of a session: what it runs and where it stands in its phase.
 *
 * @param trial 1-based trial number within the session (the line of trials.jsonl it becomes)
 * @param phase the phase it belongs to
 * @param track reload or restart: which track the trial's configuration belongs to
 * @param subject what is measured: "defaults" (baseline), the knob (sweep), the track (bayes), the
 *     validated configuration's name (validation: pgtune, reload/tps, ...)
 * @param value the knob's value in its unit (sweep), else null
 * @param unit the knob's unit (sweep), else empty
 * @param index 1-based position within the subject: run k of the baseline, value j of the sweep,
 *     iteration t of the track, pair p of the validation
 * @param count how many the subject has
 * @param side A (baseline) or B (candidate) within a validation pair, else empty
 * @param race for a race run: its side and the configuration it repeats; else null
 * @param incumbentTrial for a reference run of the track's incumbent: the trial whose configuration
 *     it repeats; 0 for a reference run of the defaults and every other step
 */
public record Step(
    int trial,
    Phase phase,
    Track track,
    String subject,
    Object value,
    String unit,
    int index,
    int count,
    String side,
    RaceRun race,
    int incumbentTrial) {
  public Step {
    unit = unit == null ? "" : unit;
    side = side == null ? "" : side;
  }

  public Step(
      int trial,
      Phase phase,
      Track track,
      String subject,
      Object value,
      String unit,
      int index,
      int count,
      String side) {
    this(trial, phase, track, subject, value, unit, index, count, side, null, 0);
  }

  /**
   * One run of a race.
   *
   * @param challenger true for the challenger's run, false for the incumbent's
   * @param sourceTrial the trial whose configuration this run repeats (0: the defaults)
   * @param pair 1-based pair number within the race
   */
  public record RaceRun(boolean challenger, int sourceTrial, int pair) {
    String describe() {
      return String.format(
          Locale.ROOT,
          "%s %s pair %d",
          challenger ? "challenger" : "incumbent",
          sourceTrial == 0 ? "defaults" : "#" + sourceTrial,
          pair);
    }
  }

  /** This Bayesian slot given to another run: a reference run of the defaults, or a race run. */
  Step as(Phase phase, RaceRun race) {
    return new Step(
        trial,
        phase,
        track,
        phase == Phase.REFERENCE ? "defaults" : subject,
        null,
        "",
        index,
        count,
        "",
        race,
        0);
  }

  /** This Bayesian slot given to a reference run of the incumbent, trial {@code source}. */
  Step asIncumbentReference(int source) {
    return new Step(
        trial, Phase.REFERENCE, track, "#" + source, null, "", index, count, "", null, source);
  }

  /**
   * This slot given to a second run of one of the track's first proposals whose one window fell far
   * below the others' ({@link MeasuredSlots}): a reference run of that trial's configuration.
   */
  Step asAnchorRecheck(int source) {
    return new Step(
        trial, Phase.REFERENCE, track, ANCHOR_RECHECK, null, "", index, count, "", null, source);
  }

  /** The subject of a slot that measures one of the track's first proposals again. */
  static final String ANCHOR_RECHECK = "anchor";

  /** The label written in the trial's record, which resume matches against the plan. */
  public String label() {
    return switch (phase) {
      case BASELINE -> String.format(Locale.ROOT, "baseline %d/%d", index, count);
      case SWEEP -> String.format(Locale.ROOT, "sweep %s=%s%s", subject, value, unit);
      case BAYES -> String.format(Locale.ROOT, "bayes %s %d/%d", track, index, count);
      case VALIDATION ->
          String.format(Locale.ROOT, "validation round %d/%d %s", index, count, subject);
      case REFERENCE ->
          ANCHOR_RECHECK.equals(subject)
              ? String.format(
                  Locale.ROOT,
                  "reference in bayes %s %d/%d: #%d again, far below the first proposals",
                  track,
                  index,
                  count,
                  incumbentTrial)
              : incumbentTrial == 0
                  ? String.format(Locale.ROOT, "reference in bayes %s %d/%d", track, index, count)
                  : String.format(
                      Locale.ROOT,
                      "reference in bayes %s %d/%d: incumbent #%d",
                      track,
                      index,
                      count,
                      incumbentTrial);
      case RACE ->
          String.format(
              Locale.ROOT, "race in bayes %s %d/%d: %s", track, index, count, race.describe());
      case PGTUNE -> "pgtune";
    };
  }

  /** True for the baseline side of a validation pair: the defaults run again. */
  public boolean runsDefaults() {
    return phase == Phase.BASELINE
        || (phase == Phase.REFERENCE && incumbentTrial == 0)
        || (phase == Phase.VALIDATION && "A".equals(side))
        || (phase == Phase.RACE && race.sourceTrial() == 0);
  }
}
