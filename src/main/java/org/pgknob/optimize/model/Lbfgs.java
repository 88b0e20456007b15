package org.pgknob.optimize.model;

/**
 * A small limited-memory BFGS minimizer (Nocedal and Wright, algorithm 7.4) with a backtracking
 * Armijo line search. Commons Math has none; hyperparameter fitting needs one with analytic
 * gradients. Unconstrained: callers map bounded parameters through a smooth transform.
 */
final class Lbfgs {
  /** A function and its gradient, written into {@code gradient}; +infinity where undefined. */
  interface DifferentiableFunction {
    double value(double[] x, double[] gradient);
  }

  private static final int MEMORY = 8;
  private static final double ARMIJO = 1e-4;

  private Lbfgs() {}

  /** Minimizes {@code f} from {@code start}; returns the best point found. */
  static double[] minimize(DifferentiableFunction f, double[] start, int maxIterations) {
    int n = start.length;
    double[] x = start.clone();
    double[] g = new double[n];
    double fx = f.value(x, g);
    if (!Double.isFinite(fx)) {
      return x;
    }
    double[][] s = new double[MEMORY][];
    double[][] y = new double[MEMORY][];
    double[] rho = new double[MEMORY];
    int stored = 0;
    int newest = -1;
    for (int iter = 0; iter < maxIterations; iter++) {
      if (maxAbs(g) < 1e-5) {
        break;
      }
      double[] d = direction(g, s, y, rho, stored, newest);
      double slope = dot(g, d);
      if (slope >= 0) { // not a descent direction: fall back to steepest descent
        for (int i = 0; i < n; i++) {
          d[i] = -g[i];
        }
        slope = dot(g, d);
        stored = 0;
      }
      double step = stored == 0 ? Math.min(1, 1 / Math.sqrt(-slope)) : 1;
      double[] xNew = new double[n];
      double[] gNew = new double[n];
      double fNew = Double.POSITIVE_INFINITY;
      boolean accepted = false;
      for (int tries = 0; tries < 30; tries++) {
        for (int i = 0; i < n; i++) {
          xNew[i] = x[i] + step * d[i];
        }
        fNew = f.value(xNew, gNew);
        if (Double.isFinite(fNew) && fNew <= fx + ARMIJO * step * slope) {
          accepted = true;
          break;
        }
        step *= 0.5;
      }
      if (!accepted) {
        break;
      }
      double[] sk = new double[n];
      double[] yk = new double[n];
      for (int i = 0; i < n; i++) {
        sk[i] = xNew[i] - x[i];
        yk[i] = gNew[i] - g[i];
      }
      double sy = dot(sk, yk);
      if (sy > 1e-12) {
        newest = (newest + 1) % MEMORY;
        s[newest] = sk;
        y[newest] = yk;
        rho[newest] = 1 / sy;
        stored = Math.min(stored + 1, MEMORY);
      }
      double decrease = fx - fNew;
      x = xNew;
      g = gNew;
      fx = fNew;
      if (decrease < 1e-10 * (1 + Math.abs(fx))) {
        break;
      }
    }
    return x;
  }

  /** The two-loop recursion: minus the inverse-Hessian estimate times the gradient. */
  private static double[] direction(
      double[] g, double[][] s, double[][] y, double[] rho, int stored, int newest) {
    double[] q = g.clone();
    double[] a = new double[MEMORY];
    for (int k = 0; k < stored; k++) {
      int i = Math.floorMod(newest - k, MEMORY);
      a[i] = rho[i] * dot(s[i], q);
      for (int j = 0; j < q.length; j++) {
        q[j] -= a[i] * y[i][j];
      }
    }
    if (stored > 0) {
      double gamma = dot(s[newest], y[newest]) / dot(y[newest], y[newest]);
      for (int j = 0; j < q.length; j++) {
        q[j] *= gamma;
      }
    }
    for (int k = stored - 1; k >= 0; k--) {
      int i = Math.floorMod(newest - k, MEMORY);
      double b = rho[i] * dot(y[i], q);
      for (int j = 0; j < q.length; j++) {
        q[j] += s[i][j] * (a[i] - b);
      }
    }
    for (int j = 0; j < q.length; j++) {
      q[j] = -q[j];
    }
    return q;
  }

  private static double dot(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  private static double maxAbs(double[] a) {
    double m = 0;
    for (double v : a) {
      m = Math.max(m, Math.abs(v));
    }
    return m;
  }
}
