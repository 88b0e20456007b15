package org.pgknob.optimize.acquisition;

import org.apache.commons.math3.special.Erf;

/**
 * Expected improvement in log form, stable far into the tail where EI itself underflows to 0 and
 * every candidate would tie. Follows Ament et al. 2023, "Unexpected improvements to expected
 * improvement for Bayesian optimization" (NeurIPS), eq. 9: {@code log EI = log sd + log h(z)} with
 * {@code h(z) = phi(z) + z Phi(z)}, {@code z = (mean - best) / sd} (maximization), and log h
 * computed through the scaled complementary error function for z <= -1.
 */
public final class LogExpectedImprovement {
  private static final double HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);
  private static final double HALF_LOG_PI_OVER_2 = 0.5 * Math.log(Math.PI / 2);
  private static final double INV_SQRT2 = 1 / Math.sqrt(2);
  private static final double INV_SQRT_PI = 1 / Math.sqrt(Math.PI);

  /** 1 / sqrt(machine epsilon): beyond it the last branch's asymptote is exact to rounding. */
  private static final double TAIL = 1 / Math.sqrt(Math.ulp(1.0));

  private LogExpectedImprovement() {}

  /** log E[max(f - best, 0)] for f ~ N(mean, sd^2). */
  public static double logEi(double mean, double sd, double best) {
    double s = Math.max(sd, 1e-12);
    return Math.log(s) + logH((mean - best) / s);
  }

  /** log(phi(z) + z Phi(z)), finite for every finite z. */
  public static double logH(double z) {
    if (z > -1) {
      return Math.log(phi(z) + z * cdf(z));
    }
    if (z > -TAIL) {
      return -0.5 * z * z
          - HALF_LOG_2PI
          + log1mexp(Math.log(erfcx(-z * INV_SQRT2) * Math.abs(z)) + HALF_LOG_PI_OVER_2);
    }
    return -0.5 * z * z - HALF_LOG_2PI - 2 * Math.log(Math.abs(z));
  }

  /** log Phi(z), the log standard normal distribution function, stable for very negative z. */
  public static double logCdf(double z) {
    if (z > -5) {
      return Math.log(cdf(z));
    }
    return Math.log(0.5 * erfcx(-z * INV_SQRT2)) - 0.5 * z * z;
  }

  static double phi(double z) {
    return Math.exp(-0.5 * z * z - HALF_LOG_2PI);
  }

  static double cdf(double z) {
    return 0.5 * Erf.erfc(-z * INV_SQRT2);
  }

  /** exp(x^2) erfc(x) for x >= 0, without the overflow and underflow of the product. */
  static double erfcx(double x) {
    if (x < 25) {
      return Math.exp(x * x) * Erf.erfc(x);
    }
    // asymptotic series; at x >= 25 the next term is below 1e-13 relative
    double inv2 = 1 / (x * x);
    double series = 1 - inv2 / 2 * (1 - 1.5 * inv2 * (1 - 2.5 * inv2 * (1 - 3.5 * inv2)));
    return INV_SQRT_PI / x * series;
  }

  /** log(1 - exp(x)) for x < 0, accurate on both sides of -ln 2 (Mächler 2012). */
  static double log1mexp(double x) {
    return x > -Math.log(2) ? Math.log(-Math.expm1(x)) : Math.log1p(-Math.exp(x));
  }
}
