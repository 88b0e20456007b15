package org.pgknob.optimize.sampling;

import java.util.Random;
import org.apache.commons.math3.random.SobolSequenceGenerator;

/**
 * Points of the unit cube from a Sobol sequence with a random digital shift: each coordinate's 52
 * bits are XOR-ed with a seeded random mask. The shift keeps the sequence's even spread (its
 * low-discrepancy property) while making different seeds give different points, and it moves the
 * first point off the corner (0, ..., 0).
 */
public final class ScrambledSobol {
  private static final int BITS = 52;
  private static final double SCALE = Math.pow(2, BITS);
  private final SobolSequenceGenerator sobol;
  private final long[] shift;

  public ScrambledSobol(int dimensions, Random random) {
    // Commons Math needs at least 1 dimension; it supports up to 1000.
    this.sobol = new SobolSequenceGenerator(Math.max(1, dimensions));
    this.shift = new long[dimensions];
    for (int i = 0; i < dimensions; i++) {
      shift[i] = random.nextLong() & ((1L << BITS) - 1);
    }
  }

  public double[] next() {
    double[] raw = sobol.nextVector();
    double[] out = new double[shift.length];
    for (int i = 0; i < shift.length; i++) {
      long bits = (long) (raw[i] * SCALE);
      out[i] = ((bits ^ shift[i]) + 0.5) / SCALE;
    }
    return out;
  }
}
