package org.pgknob.optimize.model;

/**
 * The Gaussian process's hyperparameters.
 *
 * @param lengthScales one per unit-cube dimension; a long one means the dimension barely matters
 * @param signalVariance prior variance of the latent function
 * @param noiseVariance variance of the observation noise
 */
public record GpHyperparameters(
    double[] lengthScales, double signalVariance, double noiseVariance) {
  public GpHyperparameters {
    lengthScales = lengthScales.clone();
  }

  @Override
  public double[] lengthScales() {
    return lengthScales.clone();
  }
}
