package org.pgknob.optimize.model;

/** A surrogate's belief about one point: posterior mean and variance of the latent function. */
public record Prediction(double mean, double variance) {
  public double sd() {
    return Math.sqrt(Math.max(0, variance));
  }
}
