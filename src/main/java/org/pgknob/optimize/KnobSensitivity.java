package org.pgknob.optimize;

/**
 * How much one knob moved the objective in its sweep, against the noise level.
 *
 * @param knob the knob's name
 * @param verdict what the numbers say, in one word
 * @param rangeFraction (largest - smallest mean on the curve) / reference mean, e.g. 0.12 for 12%
 * @param noiseMultiple {@code rangeFraction} over the noise level; NaN when the noise is unknown
 * @param bestValue the knob's value with the best mean, or null when nothing was measured
 * @param bestChangeFraction the best mean's change from the reference, signed as the metric moves
 *     (e.g. -0.08 for 8% lower latency)
 * @param summary the verdict as one plain phrase, e.g. {@code +12.0% at 1024MB (6.0 x noise)}
 */
public record KnobSensitivity(
    String knob,
    Verdict verdict,
    double rangeFraction,
    double noiseMultiple,
    Object bestValue,
    double bestChangeFraction,
    String summary) {

  /** The plain reading of a knob's sweep. */
  public enum Verdict {
    /** The curve's range is above {@value SweepAnalysis#EFFECT_NOISE_MULTIPLE} x noise. */
    EFFECT,
    /** Range between 1 and {@value SweepAnalysis#EFFECT_NOISE_MULTIPLE} x noise. */
    WITHIN_NOISE,
    /** Range under the noise level itself. */
    NO_EFFECT,
    /** Fewer than two values gave a result (not swept, or every value failed). */
    NOT_MEASURED
  }
}
