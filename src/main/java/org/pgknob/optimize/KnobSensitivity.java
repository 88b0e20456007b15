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

  /**
   * Whether the sweep's best value is worth keeping or trying: the sweep showed an effect, or its
   * curve stayed within {@value SweepAnalysis#EFFECT_NOISE_MULTIPLE} x noise but the best value
   * leads the default by more than one noise standard deviation. Why a lower bar than {@link
   * Verdict#EFFECT}: that bar is for saying a knob matters, and at 7% noise a shared_buffers curve
   * worth +24% read "within noise" in half the noise bench's sessions; acting on a value (an anchor
   * to try, a setting a pick keeps) is weighed again by measurements. A best value that is the
   * default, or leads it by less than the noise, is a coin toss.
   */
  public boolean bestLeadsBeyondNoise() {
    if (bestValue == null) {
      return false;
    }
    if (verdict == Verdict.EFFECT) {
      return bestChangeFraction != 0;
    }
    if (verdict != Verdict.WITHIN_NOISE || !(rangeFraction > 0) || !(noiseMultiple > 0)) {
      return false;
    }
    return Math.abs(bestChangeFraction) > rangeFraction / noiseMultiple;
  }

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
