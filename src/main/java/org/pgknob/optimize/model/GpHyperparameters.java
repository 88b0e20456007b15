package org.pgknob.optimize.model;

/**
 * The Gaussian process's hyperparameters.
 *
 * @param lengthScales one per unit-cube dimension; a long one means the dimension barely matters
 * @param signalVariance prior variance of the joint (product) part of the latent function
 * @param noiseVariance variance of the observation noise
 * @param additiveVariance prior variance of the additive part, a sum of one-dimensional functions
 *     of each input (0 when the kernel has none)
 */
public record GpHyperparameters(
    double[] lengthScales, double signalVariance, double noiseVariance, double additiveVariance) {
  public GpHyperparameters {
    lengthScales = lengthScales.clone();
  }

  /** Hyperparameters of a kernel without an additive part. */
  public GpHyperparameters(double[] lengthScales, double signalVariance, double noiseVariance) {
    this(lengthScales, signalVariance, noiseVariance, 0);
  }

  @Override
  public double[] lengthScales() {
    return lengthScales.clone();
  }

  /** The latent function's prior variance at any point: both parts together. */
  public double priorVariance() {
    return signalVariance + additiveVariance;
  }
}
