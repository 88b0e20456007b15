package org.pgknob.optimize.model;

/**
 * The log posterior of the SAAS model's hyperparameters (Eriksson and Jankowiak 2021, "High-
 * dimensional Bayesian optimization with sparse axis-aligned subspaces"), with its gradient, for
 * {@link Nuts}: a Matérn 5/2 product kernel (prior mean 0, targets standardized) whose inverse
 * squared length scales {@code rho_d = 1 / l_d^2} are half-Cauchy with a global scale {@code tau},
 * itself half-Cauchy({@value #TAU_SCALE}); signal variance Gamma(2, 0.15) and noise variance
 * Gamma(0.9, 10), the priors of BoTorch's fully Bayesian SAAS model.
 *
 * <p>Coordinates (all unbounded, the Jacobians included): {@code u_d = log(rho_d / tau)} for each
 * dimension, then {@code log tau}, {@code log signal variance}, {@code log noise variance}. Writing
 * {@code rho_d = tau exp(u_d)} with {@code exp(u_d)} half-Cauchy(1) is the non-centred form BoTorch
 * samples: the prior of each {@code u_d} no longer depends on tau, so the sampler does not have to
 * walk the funnel between a small tau and tiny rho's. The likelihood and its gradient are {@link
 * MarginalLikelihood#negativeLogLikelihood}'s, in log length scales {@code log l_d = -(log tau +
 * u_d) / 2}.
 *
 * <p>Categorical inputs (the {@link CategoricalKernel#OVERLAP overlap} kernel, {@code exp(-[c !=
 * c'] / l_c)}: one input per knob) have the same prior on their {@code rho_c = 1 / l_c^2}, so the
 * overlap's exponent is {@code sqrt(rho_c)}. A prior on {@code 1 / l_c} itself (a switch of
 * category then costs about what a numeric input's move across its range costs for the same draw)
 * keeps categorical knobs flatter, and was worse on both mixed spaces of the optimizer benchmark,
 * on 20 of 30 and 10 of 16 seeds (README, issue 17's ninth round).
 */
final class SaasPosterior implements Nuts.LogDensity {
  /** The global scale's half-Cauchy scale, SAASBO's alpha. */
  static final double TAU_SCALE = 0.1;

  private static final double SIGNAL_SHAPE = 2;
  private static final double SIGNAL_RATE = 0.15;
  private static final double NOISE_SHAPE = 0.9;
  private static final double NOISE_RATE = 10;

  private final double[][] x;
  private final double[] y;
  private final double[] knownNoise;
  private final boolean[] categorical;
  private final int dims;

  SaasPosterior(double[][] x, double[] y, double[] knownNoise) {
    this(x, y, knownNoise, null);
  }

  /** Kernel inputs of which {@code categorical} marks those compared by equality (null: none). */
  SaasPosterior(double[][] x, double[] y, double[] knownNoise, boolean[] categorical) {
    this.x = x;
    this.y = y;
    this.knownNoise = knownNoise;
    this.categorical = categorical;
    this.dims = x[0].length;
  }

  /** Coordinates: one per input, then log tau, log signal variance, log noise variance. */
  int parameters() {
    return dims + 3;
  }

  /** A start in the prior's bulk: every rho at tau, tau at its scale, unit signal, small noise. */
  double[] start() {
    double[] q = new double[parameters()];
    q[dims] = Math.log(TAU_SCALE);
    q[dims + 1] = 0;
    q[dims + 2] = Math.log(0.01);
    return q;
  }

  @Override
  public double value(double[] q, double[] gradient) {
    double logTau = q[dims];
    double[] p = new double[dims + 2];
    for (int d = 0; d < dims; d++) {
      p[d] = -0.5 * (logTau + q[d]);
    }
    p[dims] = q[dims + 1];
    p[dims + 1] = q[dims + 2];
    double[] g = new double[dims + 2];
    double nll = MarginalLikelihood.negativeLogLikelihood(x, y, knownNoise, categorical, p, g);
    if (!Double.isFinite(nll)) {
      return Double.NEGATIVE_INFINITY;
    }
    double out = -nll;
    double tauGradient = 0;
    for (int d = 0; d < dims; d++) {
      // d(-nll)/du_d = -g_d * d(log l_d)/du_d = g_d / 2; exp(u_d) ~ half-Cauchy(1), Jacobian e^u
      double u = q[d];
      out += u - softplus(2 * u);
      gradient[d] = 0.5 * g[d] - Math.tanh(u);
      tauGradient += 0.5 * g[d];
    }
    // d/dt log(1 + e^{2(t - log alpha)}) = 2 sigmoid(2(t - log alpha))
    double scaled = sigmoid(2 * (logTau - Math.log(TAU_SCALE)));
    out += logTau - softplus(2 * (logTau - Math.log(TAU_SCALE)));
    gradient[dims] = tauGradient + 1 - 2 * scaled;
    double logSignal = q[dims + 1];
    out += SIGNAL_SHAPE * logSignal - SIGNAL_RATE * Math.exp(logSignal);
    gradient[dims + 1] = -g[dims] + SIGNAL_SHAPE - SIGNAL_RATE * Math.exp(logSignal);
    double logNoise = q[dims + 2];
    out += NOISE_SHAPE * logNoise - NOISE_RATE * Math.exp(logNoise);
    gradient[dims + 2] = -g[dims + 1] + NOISE_SHAPE - NOISE_RATE * Math.exp(logNoise);
    return out;
  }

  /** log(1 + e^z) without overflow. */
  private static double softplus(double z) {
    return z > 30 ? z : Math.log1p(Math.exp(z));
  }

  private static double sigmoid(double z) {
    return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
  }

  /** The kernel's hyperparameters at coordinates {@code q}. */
  GpHyperparameters hyperparameters(double[] q) {
    double[] ls = new double[dims];
    for (int d = 0; d < dims; d++) {
      ls[d] = Math.exp(-0.5 * (q[dims] + q[d]));
    }
    return new GpHyperparameters(ls, Math.exp(q[dims + 1]), Math.exp(q[dims + 2]));
  }
}
