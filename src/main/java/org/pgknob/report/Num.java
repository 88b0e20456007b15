package org.pgknob.report;

import java.util.List;
import java.util.Locale;

/** Rounding, statistics and Locale.ROOT formatting shared by the report's builders. */
final class Num {
  static final double MB = 1024.0 * 1024.0;

  private Num() {}

  /** Three decimals: finer than any reader needs, and stable in golden files. */
  static double r(double x) {
    return Math.round(x * 1000.0) / 1000.0;
  }

  /** Six significant digits: axis ends, which may be small (latency) or large (bytes). */
  static double r6(double x) {
    if (x == 0 || !Double.isFinite(x)) {
      return x;
    }
    return new java.math.BigDecimal(x).round(new java.math.MathContext(6)).doubleValue();
  }

  static double mean(List<Double> xs) {
    return xs.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
  }

  /** Sample standard deviation; 0 for fewer than two values. */
  static double sd(List<Double> xs) {
    if (xs.size() < 2) {
      return 0;
    }
    double m = mean(xs);
    double ss = xs.stream().mapToDouble(x -> (x - m) * (x - m)).sum();
    return Math.sqrt(ss / (xs.size() - 1));
  }

  static String f(String pattern, Object... args) {
    return String.format(Locale.ROOT, pattern, args);
  }

  /** A number with as many decimals as its size deserves: 1234, 123.4, 12.34, 1.234. */
  static String fmt(Double x) {
    if (x == null || x.isNaN()) {
      return "";
    }
    double a = Math.abs(x);
    if (a >= 1000) {
      return f("%,.0f", x);
    }
    if (a >= 100) {
      return f("%.1f", x);
    }
    if (a >= 10) {
      return f("%.2f", x);
    }
    return f("%.3f", x);
  }
}
