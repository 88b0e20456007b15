package org.pgknob.optimize.model;

/**
 * The unit-cube dimensions {@code [offset, offset + width)} that one-hot encode one categorical
 * knob (an enum or a bool): exactly one of them is 1 at any point that can be run.
 */
public record CategoricalBlock(int offset, int width) {
  public CategoricalBlock {
    if (offset < 0 || width < 2) {
      throw new IllegalArgumentException(
          "a categorical block needs offset >= 0 and width >= 2, but got offset="
              + offset
              + ", width="
              + width);
    }
  }
}
