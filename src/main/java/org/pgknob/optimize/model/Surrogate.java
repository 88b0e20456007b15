package org.pgknob.optimize.model;

/** A fitted model of the objective over the unit cube. */
public interface Surrogate {
  Prediction predict(double[] x);

  /**
   * How strongly predictions depend on the unit-cube dimensions {@code [offset, offset + width)}
   * (one knob's), on a scale comparable across knobs; at least 0.
   */
  double relevance(int offset, int width);
}
