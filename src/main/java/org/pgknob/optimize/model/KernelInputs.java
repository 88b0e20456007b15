package org.pgknob.optimize.model;

import java.util.Arrays;
import java.util.List;

/**
 * The Gaussian process's inputs, read from points of the unit cube. By default each unit-cube
 * dimension is one input. With categorical blocks (the {@link CategoricalKernel#OVERLAP overlap}
 * kernel), each block is one input holding the index of its hot dimension, which the kernel
 * compares by equality only: the index is a label, never a distance.
 */
final class KernelInputs {
  private final int unitDimensions;

  /** Per input: its first unit-cube dimension, and its width (1, or the block's). */
  private final int[] first;

  private final int[] width;
  private final boolean[] categorical;

  /** Per unit-cube dimension: the input it belongs to. */
  private final int[] inputAt;

  private KernelInputs(int unitDimensions, int[] first, int[] width, boolean[] categorical) {
    this.unitDimensions = unitDimensions;
    this.first = first;
    this.width = width;
    this.categorical = categorical;
    this.inputAt = new int[unitDimensions];
    for (int k = 0; k < first.length; k++) {
      Arrays.fill(inputAt, first[k], first[k] + width[k], k);
    }
  }

  /**
   * The inputs {@code kernel} compares: each categorical block one input under the overlap kernel,
   * every unit-cube dimension its own input otherwise.
   */
  static KernelInputs of(
      CategoricalKernel kernel, int unitDimensions, List<CategoricalBlock> blocks) {
    return kernel == CategoricalKernel.OVERLAP
        ? withBlocks(unitDimensions, blocks)
        : identity(unitDimensions);
  }

  /** One input per unit-cube dimension. */
  static KernelInputs identity(int unitDimensions) {
    int[] first = new int[unitDimensions];
    int[] width = new int[unitDimensions];
    for (int d = 0; d < unitDimensions; d++) {
      first[d] = d;
      width[d] = 1;
    }
    return new KernelInputs(unitDimensions, first, width, new boolean[unitDimensions]);
  }

  /**
   * One input per block and per unit-cube dimension outside the blocks, in the unit cube's order.
   *
   * @throws IllegalArgumentException if the blocks overlap or reach past the cube
   */
  static KernelInputs withBlocks(int unitDimensions, List<CategoricalBlock> blocks) {
    if (blocks.isEmpty()) {
      return identity(unitDimensions);
    }
    int[] blockAt = new int[unitDimensions];
    Arrays.fill(blockAt, -1);
    for (int b = 0; b < blocks.size(); b++) {
      CategoricalBlock block = blocks.get(b);
      for (int d = block.offset(); d < block.offset() + block.width(); d++) {
        if (d >= unitDimensions || blockAt[d] >= 0) {
          throw new IllegalArgumentException(
              "categorical blocks must be disjoint and inside the "
                  + unitDimensions
                  + " dimensions, but got "
                  + blocks);
        }
        blockAt[d] = b;
      }
    }
    int inputs = 0;
    int[] first = new int[unitDimensions];
    int[] width = new int[unitDimensions];
    boolean[] categorical = new boolean[unitDimensions];
    for (int d = 0; d < unitDimensions; ) {
      first[inputs] = d;
      if (blockAt[d] >= 0) {
        width[inputs] = blocks.get(blockAt[d]).width();
        categorical[inputs] = true;
      } else {
        width[inputs] = 1;
      }
      d += width[inputs];
      inputs++;
    }
    return new KernelInputs(
        unitDimensions,
        Arrays.copyOf(first, inputs),
        Arrays.copyOf(width, inputs),
        Arrays.copyOf(categorical, inputs));
  }

  int size() {
    return first.length;
  }

  int unitDimensions() {
    return unitDimensions;
  }

  /** Which inputs are categorical (compared by equality); null when none is. */
  boolean[] categoricalMask() {
    for (boolean c : categorical) {
      if (c) {
        return categorical.clone();
      }
    }
    return null;
  }

  /** The input holding unit-cube dimension {@code d}. */
  int inputAt(int d) {
    return inputAt[d];
  }

  boolean isCategorical(int input) {
    return categorical[input];
  }

  /**
   * The point as the kernel's inputs; the point itself when every input is one dimension. A block's
   * input is the index of its largest coordinate (the first of equal ones), as decoding reads it.
   */
  double[] project(double[] point) {
    if (first.length == unitDimensions) {
      return point;
    }
    double[] out = new double[first.length];
    for (int k = 0; k < first.length; k++) {
      int f = first[k];
      if (!categorical[k]) {
        out[k] = point[f];
        continue;
      }
      int hot = 0;
      for (int i = 1; i < width[k]; i++) {
        if (point[f + i] > point[f + hot]) {
          hot = i;
        }
      }
      out[k] = hot;
    }
    return out;
  }

  double[][] project(double[][] points) {
    double[][] out = new double[points.length][];
    for (int i = 0; i < points.length; i++) {
      out[i] = project(points[i]);
    }
    return out;
  }
}
