package org.pgknob.optimize.model;

import java.util.Arrays;

/**
 * How the Gaussian process compares two values of a categorical knob.
 *
 * <ul>
 *   <li>{@code onehot}: each category is a unit-cube dimension of its own, with its own length
 *       scale, inside the Matérn kernel: a k-valued knob costs k length scales to fit.
 *   <li>{@code overlap}: the knob is one input compared by equality, {@code exp(-[c != c'] / l)}
 *       with one length scale (the overlap or Hamming kernel of CoCaBO, Ru et al. 2020, and
 *       CASMOPOLITAN, Wan et al. 2021): an irrelevant enum adds one length scale, not k.
 * </ul>
 */
public enum CategoricalKernel {
  ONE_HOT("onehot"),
  OVERLAP("overlap");

  private final String label;

  CategoricalKernel(String label) {
    this.label = label;
  }

  public String label() {
    return label;
  }

  /** The kernel named {@code label}, or empty if none is. */
  public static java.util.Optional<CategoricalKernel> of(String label) {
    return Arrays.stream(values()).filter(k -> k.label.equals(label)).findFirst();
  }
}
