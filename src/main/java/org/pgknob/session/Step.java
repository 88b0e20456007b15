package org.pgknob.session;

import java.util.Locale;

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
 */
public record Step(
    int trial,
    Phase phase,
    String track,
    String subject,
    Object value,
    String unit,
    int index,
    int count,
    String side) {
  public Step {
    unit = unit == null ? "" : unit;
    side = side == null ? "" : side;
  }

  /** The label written in the trial's record, which resume matches against the plan. */
  public String label() {
    return switch (phase) {
      case BASELINE -> String.format(Locale.ROOT, "baseline %d/%d", index, count);
      case SWEEP -> String.format(Locale.ROOT, "sweep %s=%s%s", subject, value, unit);
      case BAYES -> String.format(Locale.ROOT, "bayes %s %d/%d", track, index, count);
      case VALIDATION ->
          String.format(Locale.ROOT, "validation round %d/%d %s", index, count, subject);
    };
  }

  /** True for the baseline side of a validation pair: the defaults run again. */
  public boolean runsDefaults() {
    return phase == Phase.BASELINE || (phase == Phase.VALIDATION && "A".equals(side));
  }
}
