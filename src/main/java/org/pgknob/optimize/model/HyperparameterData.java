package org.pgknob.optimize.model;

/**
 * The observations a fitter tunes hyperparameters on: all of them up to {@link
 * GpFitter#FULL_FIT_LIMIT}, past it {@link GpFitter#SUBSET} of them ({@link GpFitter#subset}: the
 * best half and an even spread of the rest), since each likelihood costs O(n^3) and the
 * hyperparameters settle long before; the model is then conditioned on all of them.
 *
 * @param x inputs
 * @param y targets
 * @param knownNoise known noise variances, null for none
 */
record HyperparameterData(double[][] x, double[] y, double[] knownNoise) {

  static HyperparameterData of(double[][] x, double[] y, double[] knownNoise) {
    if (x.length <= GpFitter.FULL_FIT_LIMIT) {
      return new HyperparameterData(x, y, knownNoise);
    }
    int[] chosen = GpFitter.subset(y, GpFitter.SUBSET);
    double[][] fx = new double[chosen.length][];
    double[] fy = new double[chosen.length];
    double[] fk = knownNoise == null ? null : new double[chosen.length];
    for (int i = 0; i < chosen.length; i++) {
      fx[i] = x[chosen[i]];
      fy[i] = y[chosen[i]];
      if (fk != null) {
        fk[i] = knownNoise[chosen[i]];
      }
    }
    return new HyperparameterData(fx, fy, fk);
  }
}
