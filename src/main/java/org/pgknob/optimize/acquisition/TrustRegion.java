package org.pgknob.optimize.acquisition;

/**
 * A box of the unit cube around the incumbent where the acquisition's space-filling candidates are
 * drawn (TuRBO, Eriksson et al. 2019): in many dimensions EI over the whole cube is highest in the
 * far corners, where the model knows nothing, and a few dozen trials spent there learn little. Each
 * dimension's side is the base length times its length scale over their geometric mean, so a knob
 * the model finds irrelevant spans its whole range and a relevant one is searched near the
 * incumbent's value.
 *
 * @param lower the box's lower corner
 * @param upper the box's upper corner
 */
public record TrustRegion(double[] lower, double[] upper) {
  public TrustRegion {
    lower = lower.clone();
    upper = upper.clone();
  }

  /**
   * The box centred on {@code center} (clipped to the cube) with sides {@code length x weight_d},
   * where the weights are the length scales over their geometric mean, clipped to [1/8, 8]
   * relative; {@code free} dimensions (categorical one-hot coordinates) span the cube.
   */
  public static TrustRegion around(
      double[] center, double[] lengthScales, boolean[] free, double length) {
    int n = center.length;
    double logSum = 0;
    int counted = 0;
    for (int d = 0; d < n; d++) {
      if (!free[d]) {
        logSum += Math.log(lengthScales[d]);
        counted++;
      }
    }
    double geometricMean = counted == 0 ? 1 : Math.exp(logSum / counted);
    double[] lo = new double[n];
    double[] hi = new double[n];
    for (int d = 0; d < n; d++) {
      if (free[d]) {
        lo[d] = 0;
        hi[d] = 1;
        continue;
      }
      double weight = Math.max(0.125, Math.min(8, lengthScales[d] / geometricMean));
      double half = length * weight / 2;
      lo[d] = Math.max(0, center[d] - half);
      hi[d] = Math.min(1, center[d] + half);
    }
    return new TrustRegion(lo, hi);
  }

  /** A point of the unit cube mapped into the box. */
  public double[] map(double[] unit) {
    double[] out = new double[unit.length];
    for (int d = 0; d < unit.length; d++) {
      out[d] = lower[d] + unit[d] * (upper[d] - lower[d]);
    }
    return out;
  }

  @Override
  public double[] lower() {
    return lower.clone();
  }

  @Override
  public double[] upper() {
    return upper.clone();
  }
}
