package org.pgknob.optimize.model;

import java.util.stream.LongStream;
import smile.base.cart.CART;
import smile.data.DataFrame;
import smile.data.Tuple;
import smile.data.formula.Formula;
import smile.data.type.StructType;
import smile.regression.RandomForest;

/**
 * A random forest (Smile) as a surrogate, as in SMAC: the mean and variance of the trees'
 * predictions. Suits spaces dominated by categorical knobs, where splits fit better than a smooth
 * kernel. Runs on plain Java: Smile's native BLAS is not needed for trees.
 */
public final class RandomForestSurrogate implements Surrogate {
  /** Trees in the forest. */
  static final int TREES = 32;

  /** Smallest leaf, as SMAC's default of 3 points. */
  static final int NODE_SIZE = 3;

  /** Variance floor, so expected improvement never divides by zero where all trees agree. */
  static final double MIN_VARIANCE = 1e-6;

  private final CART[] trees;
  private final StructType schema;
  private final double[] importance;

  private RandomForestSurrogate(CART[] trees, StructType schema, double[] importance) {
    this.trees = trees;
    this.schema = schema;
    this.importance = importance;
  }

  /** Fits a forest to {@code y} at {@code x}; deterministic for a seed. */
  public static RandomForestSurrogate fit(double[][] x, double[] y, long seed) {
    int n = x.length;
    int dims = x[0].length;
    double[][] data = new double[n][dims + 1];
    String[] names = new String[dims + 1];
    for (int d = 0; d < dims; d++) {
      names[d] = "x" + d;
    }
    names[dims] = "y";
    for (int i = 0; i < n; i++) {
      System.arraycopy(x[i], 0, data[i], 0, dims);
      data[i][dims] = y[i];
    }
    DataFrame frame = DataFrame.of(data, names);
    int mtry = Math.max(1, (int) Math.ceil(dims * 5.0 / 6.0));
    RandomForest forest =
        RandomForest.fit(
            Formula.lhs("y"),
            frame,
            TREES,
            mtry,
            20,
            Math.max(2, n),
            NODE_SIZE,
            1.0,
            LongStream.range(0, TREES).map(t -> seed * 1_000_003L + t));
    return new RandomForestSurrogate(forest.trees(), frame.schema(), forest.importance());
  }

  /** The dimension count a point must have ({@code y} excluded). */
  private int dims() {
    return schema.length() - 1;
  }

  @Override
  public Prediction predict(double[] x) {
    double[] row = new double[dims() + 1];
    System.arraycopy(x, 0, row, 0, dims());
    Tuple t = Tuple.of(row, schema);
    double sum = 0;
    double sumSquares = 0;
    for (CART tree : trees) {
      double v = ((smile.regression.RegressionTree) tree).predict(t);
      sum += v;
      sumSquares += v * v;
    }
    double mean = sum / trees.length;
    double variance = Math.max(MIN_VARIANCE, sumSquares / trees.length - mean * mean);
    return new Prediction(mean, variance);
  }

  /** The forest's impurity-reduction importance summed over the knob's dimensions. */
  @Override
  public double relevance(int offset, int width) {
    double s = 0;
    for (int d = offset; d < offset + width; d++) {
      s += importance[d];
    }
    return s;
  }

  /** The fitter for {@code --surrogate rf}. */
  public static final class Fitter implements SurrogateFitter {
    @Override
    public Surrogate fit(double[][] x, double[] y, long seed) {
      return RandomForestSurrogate.fit(x, y, seed);
    }

    @Override
    public String name() {
      return "rf";
    }
  }
}
