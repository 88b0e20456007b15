package org.pgknob.optimize;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.ToDoubleFunction;
import org.pgknob.optimize.sampling.ScrambledSobol;
import org.pgknob.space.UnitCubeEncoder;

/**
 * Each knob's main effect on a model's posterior mean, fANOVA-style (Hutter et al. 2014): the
 * knob's curve is the mean prediction with the knob at a value and every other knob spread over the
 * space (a fixed set of Sobol points); the variance of that curve over the knob's values, as a
 * share of the prediction's total variance over the space, is the knob's first-order Sobol index.
 * Unlike inverse length scales, it says how much the objective moves, not how quickly the model may
 * bend, so it can be held against the noise like a sweep's range.
 */
final class MainEffects {
  /** Points the other knobs are averaged over. */
  static final int BASE_POINTS = 64;

  /** Values per numeric knob along its curve. */
  static final int VALUES = 9;

  private MainEffects() {}

  /**
   * The knobs' main effects on {@code mean} (on the model's scale), most important first; {@code
   * toObjective} maps a model value back to the objective, for the effect's relative range.
   *
   * @param canonical maps a raw unit-cube point to the point the model sees (inactive knobs at
   *     their defaults, categories one-hot)
   */
  static List<MainEffect> of(
      UnitCubeEncoder encoder,
      ToDoubleFunction<double[]> mean,
      java.util.function.UnaryOperator<double[]> canonical,
      java.util.function.DoubleUnaryOperator toObjective,
      long seed) {
    ScrambledSobol sobol = new ScrambledSobol(encoder.dimensions(), new Random(seed));
    double[][] base = new double[BASE_POINTS][];
    double total = 0;
    double totalSquares = 0;
    for (int i = 0; i < BASE_POINTS; i++) {
      base[i] = sobol.next();
      double v = mean.applyAsDouble(canonical.apply(base[i]));
      total += v;
      totalSquares += v * v;
    }
    double overallMean = total / BASE_POINTS;
    double variance = Math.max(0, totalSquares / BASE_POINTS - overallMean * overallMean);
    double reference = Math.abs(toObjective.applyAsDouble(overallMean));
    List<MainEffect> out = new ArrayList<>();
    for (UnitCubeEncoder.Segment s : encoder.segments()) {
      int values = s.width() == 1 ? VALUES : s.width();
      double[] curve = new double[values];
      for (int j = 0; j < values; j++) {
        double sum = 0;
        for (double[] b : base) {
          double[] x = b.clone();
          if (s.width() == 1) {
            x[s.offset()] = (j + 0.5) / values;
          } else {
            for (int d = 0; d < s.width(); d++) {
              x[s.offset() + d] = d == j ? 1 : 0;
            }
          }
          sum += mean.applyAsDouble(canonical.apply(x));
        }
        curve[j] = sum / BASE_POINTS;
      }
      double curveMean = 0;
      double lo = Double.POSITIVE_INFINITY;
      double hi = Double.NEGATIVE_INFINITY;
      for (double c : curve) {
        curveMean += c / values;
        lo = Math.min(lo, c);
        hi = Math.max(hi, c);
      }
      double curveVariance = 0;
      for (double c : curve) {
        curveVariance += (c - curveMean) * (c - curveMean) / values;
      }
      double range =
          Math.abs(toObjective.applyAsDouble(hi) - toObjective.applyAsDouble(lo)) / reference;
      out.add(
          new MainEffect(
              s.knob().name(),
              variance > 0 ? Math.min(1, curveVariance / variance) : 0,
              reference > 0 && Double.isFinite(range) ? range : Double.NaN));
    }
    out.sort(Comparator.comparingDouble(MainEffect::index).reversed());
    return out;
  }
}
