package org.pgknob.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.pgknob.measure.DetectableEffect;
import org.pgknob.measure.NoiseComponents;
import org.pgknob.measure.RunNoise;
import org.pgknob.measure.WindowChoice;
import org.pgknob.runs.Goal;
import org.pgknob.trial.TrialResult;

/**
 * What --duration auto chooses once the baselines ran: the window, among the baselines' window and
 * two, four and eight times it, with which the validation the budget leaves can tell the smallest
 * gain from noise. The baselines give both parts of the noise: each window's own error (batch means
 * of its per-second values), which a longer window averages away, and the rest of the run-to-run
 * spread, which no window length reduces. A longer window must lower the detectable gain by a tenth
 * to be chosen ({@link MeasurementReport#WORTHWHILE_LOWERING}): it costs the search trials.
 *
 * <p>Everything comes from the logged baselines and the inputs, so a resumed session that stopped
 * before recording the choice makes the same one.
 *
 * @param windowSeconds the window chosen
 * @param reason one console line: the choice and why
 * @param shares the budget's trials shared for that window, the baselines kept
 */
record WindowDecision(int windowSeconds, String reason, Budget.Shares shares) {
  /** Candidate windows as multiples of the baselines' window. */
  static final List<Integer> FACTORS = List.of(1, 2, 4, 8);

  /**
   * The choice for a session whose {@code baselines} ran with the inputs' starting window.
   *
   * @param databaseBytes the bytes a reset copies (for the trials' estimated length)
   */
  static WindowDecision after(
      List<TrialResult> baselines, SessionInputs inputs, long databaseBytes) {
    int base = inputs.autoWindow().baselineSeconds();
    SessionMeasurements m = new SessionMeasurements(baselines, inputs.objective());
    RunNoise noise = m.noise();
    NoiseComponents c = m.components();
    Budget budget = Budget.parse(inputs.budget());
    double baseTrial =
        Budget.estimateTrialSeconds(databaseBytes, inputs.rampupSeconds(), base, true);
    WindowBudget left =
        new WindowBudget(
            budget,
            WindowBudget.timeOf(budget, baseTrial),
            baselines.size(),
            baselines.size() * baseTrial,
            inputs.tracks(),
            inputs.objective());
    List<Integer> windows = new ArrayList<>();
    FACTORS.forEach(f -> windows.add(f * base));
    WindowChoice.Choice choice =
        WindowChoice.choose(
            c,
            windows,
            w ->
                left.validationRounds(
                    Budget.estimateTrialSeconds(databaseBytes, inputs.rampupSeconds(), w, true)),
            Math.max(1, noise.degreesOfFreedom()),
            DetectableEffect.DEFAULT,
            MeasurementReport.WORTHWHILE_LOWERING);
    int chosen = choice.chosen().windowSeconds();
    double chosenTrial =
        Budget.estimateTrialSeconds(databaseBytes, inputs.rampupSeconds(), chosen, true);
    return new WindowDecision(
        chosen, reason(choice, base, m, noise, inputs.objective()), left.shares(chosenTrial));
  }

  /**
   * "window: 30 s chosen (--duration auto): the baselines' per-second TPS gives a window error of
   * 2.1% at 15 s (batch means) and their runs differ by 3.0%; 30 s windows bring the detectable
   * gain in this budget from 9% to 6% (15 s: 9%, 30 s: 6%, 60 s: 6%, 120 s: no room)".
   */
  private static String reason(
      WindowChoice.Choice choice, int base, SessionMeasurements m, RunNoise noise, Goal objective) {
    int chosen = choice.chosen().windowSeconds();
    String head =
        chosen == base
            ? String.format(Locale.ROOT, "window: %d s kept (--duration auto): ", base)
            : String.format(Locale.ROOT, "window: %d s chosen (--duration auto): ", chosen);
    if (m.summary().windows() == 0) {
      return head
          + "the workload reported no per-second values, so a window's own error is unknown and"
          + " no longer window can be shown to help";
    }
    String measured =
        String.format(
            Locale.ROOT,
            "the baselines' per-second %s gives a window error of %.1f%% at %d s (batch means) and"
                + " their runs differ by %.1f%%",
            objective == Goal.TPS ? "TPS" : "latency",
            100 * m.components().withinLogSd(),
            base,
            100 * noise.cv());
    String options =
        String.join(
            ", ",
            choice.options().stream()
                .map(
                    o ->
                        o.windowSeconds()
                            + " s: "
                            + (o.pairs() > 0
                                ? MeasurementReport.percent(o.smallestGain())
                                : "no room"))
                .toList());
    if (chosen == base) {
      return head
          + measured
          + "; no longer window lowers the detectable gain in this budget by a tenth ("
          + options
          + ")";
    }
    return head
        + measured
        + String.format(
            Locale.ROOT,
            "; %d s windows bring the detectable gain in this budget from %s to %s (%s)",
            chosen,
            MeasurementReport.percent(choice.at(base).smallestGain()),
            MeasurementReport.percent(choice.chosen().smallestGain()),
            options);
  }
}
