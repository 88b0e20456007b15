package org.pgknob.session;

import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.distribution.TDistribution;
import org.pgknob.PgknobException;
import org.pgknob.measure.PairedRatio;
import org.pgknob.measure.RunNoise;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.trial.TrialResult;

/**
 * The statistics behind every claim pgknob makes: the ratio of a candidate to the baseline from
 * interleaved pairs, and the baseline's noise level.
 *
 * <p>Why log-ratios: each pair runs on a freshly reset database one after the other, so slow drift
 * of the machine cancels within a pair, and ratios (not differences) are what people compare. The
 * mean of the log-ratios back-transformed is the geometric mean of the per-pair ratios; its 95%
 * interval comes from the t distribution with n - 1 degrees of freedom, which is honest for the
 * handful of pairs a session can afford.
 */
public final class ValidationStats {
  /** The fewest pairs a session validates with; two give an interval, but a very wide one. */
  public static final int MIN_VALIDATION_PAIRS = 3;

  /** The most pairs {@link #pairsNeeded} recommends; beyond that, longer windows help more. */
  public static final int MAX_VALIDATION_PAIRS = 12;

  static final double CONFIDENCE = 0.95;

  private ValidationStats() {}

  /** {A's value, B's value} on the objective: one pair of a validation round. */
  static double[] pair(TrialResult a, TrialResult b, Goal objective) {
    return new double[] {Objectives.value(a, objective), Objectives.value(b, objective)};
  }

  /**
   * The paired ratio B / A of the pairs {A, B} with its 95% interval, its spread combining the
   * pairs' own with a noise pooled over more runs ({@link PairedRatio}; the session passes {@link
   * ValidationNoise}'s): a few pairs then decide what their own 2 or 3 degrees of freedom could
   * not.
   */
  static PairedRatio paired(List<double[]> pairs, RunNoise noise) {
    double[] a = pairs.stream().mapToDouble(p -> p[0]).toArray();
    double[] b = pairs.stream().mapToDouble(p -> p[1]).toArray();
    return PairedRatio.of(a, b, CONFIDENCE, noise);
  }

  /**
   * The ratio candidate / baseline of one metric from interleaved pairs: the geometric mean of
   * {@code candidate[i] / baseline[i]} with its 95% t interval on the log-ratios.
   *
   * @param baseline the metric of each pair's A run (baseline), all positive
   * @param candidate the metric of each pair's B run, same length
   * @throws PgknobException when fewer than 2 pairs are given (no spread, no interval)
   */
  public static Summary.Ratio ratio(double[] baseline, double[] candidate) {
    if (baseline.length != candidate.length) {
      throw new IllegalArgumentException(
          "pairs need one baseline and one candidate value each, but got "
              + baseline.length
              + " baseline and "
              + candidate.length
              + " candidate values");
    }
    int n = baseline.length;
    if (n < 2) {
      throw new PgknobException(
          "a ratio with a confidence interval needs at least 2 validation pairs, but got " + n,
          "run at least " + MIN_VALIDATION_PAIRS + " interleaved pairs (A B A B A B)");
    }
    double[] logs = new double[n];
    for (int i = 0; i < n; i++) {
      if (!(baseline[i] > 0)
          || !(candidate[i] > 0)
          || !Double.isFinite(candidate[i] / baseline[i])) {
        throw new IllegalArgumentException(
            "pair "
                + (i + 1)
                + " must have positive finite values, but got A="
                + baseline[i]
                + ", B="
                + candidate[i]);
      }
      logs[i] = Math.log(candidate[i] / baseline[i]);
    }
    double mean = mean(logs);
    double halfWidth = tQuantile(n - 1) * sampleSd(logs, mean) / Math.sqrt(n);
    return new Summary.Ratio(
        Math.exp(mean), Math.exp(mean - halfWidth), Math.exp(mean + halfWidth), n);
  }

  /**
   * True when both values (A and B, the first two entries) of every pair are positive and finite: a
   * metric the workload reported. A benchmark command may report TPS alone, and its latency and
   * NOPM are then 0 in every run; a ratio of those means nothing, so callers leave it out instead.
   */
  public static boolean measured(List<double[]> pairs) {
    for (double[] p : pairs) {
      for (int i = 0; i < 2; i++) {
        if (!(p[i] > 0) || !Double.isFinite(p[i])) {
          return false;
        }
      }
    }
    return !pairs.isEmpty();
  }

  /** {@link #ratio(double[], double[])} of the values in a list of pairs {A, B}. */
  public static Summary.Ratio ratio(List<double[]> pairs) {
    double[] a = new double[pairs.size()];
    double[] b = new double[pairs.size()];
    for (int i = 0; i < pairs.size(); i++) {
      a[i] = pairs.get(i)[0];
      b[i] = pairs.get(i)[1];
    }
    return ratio(a, b);
  }

  /**
   * The noise level of repeated baseline runs: mean and coefficient of variation (sample standard
   * deviation / mean) of TPS and of the average latency. Failed runs are left out.
   *
   * @throws PgknobException when fewer than 2 runs succeeded
   */
  public static Summary.Noise noise(List<TrialResult> baselineRuns) {
    double[] tps =
        baselineRuns.stream()
            .filter(TrialResult::isOk)
            .mapToDouble(t -> t.workload().tps())
            .toArray();
    double[] latency =
        baselineRuns.stream()
            .filter(TrialResult::isOk)
            .mapToDouble(t -> t.workload().overall().avgMs())
            .toArray();
    return noise(tps, latency);
  }

  /** The noise level from the TPS and average-latency values of repeated baseline runs. */
  public static Summary.Noise noise(double[] tps, double[] latencyAvgMs) {
    if (tps.length < 2 || latencyAvgMs.length != tps.length) {
      throw new PgknobException(
          "the noise level needs at least 2 successful baseline runs, but got " + tps.length,
          "check why the baseline trials failed (trials.jsonl) and run the session again");
    }
    return new Summary.Noise(
        tps.length,
        mean(tps),
        coefficientOfVariation(tps),
        mean(latencyAvgMs),
        coefficientOfVariation(latencyAvgMs));
  }

  /** Sample standard deviation over the mean; 0 when all values are equal. */
  public static double coefficientOfVariation(double[] values) {
    double mean = mean(values);
    return mean == 0 ? 0 : sampleSd(values, mean) / Math.abs(mean);
  }

  /**
   * How many interleaved pairs a ratio of {@code detectableRatio} (e.g. 1.05 for 5%) needs to be
   * told from 1 at 95% when single runs vary by {@code runCv}: the smallest n with {@code t(n-1) *
   * sd / sqrt(n) < |ln(detectableRatio)|}, where the per-pair log-ratio sd is taken as {@code
   * sqrt(2) * runCv} (two independent runs per pair). Between {@link #MIN_VALIDATION_PAIRS} and
   * {@link #MAX_VALIDATION_PAIRS}; the maximum when even that is not enough.
   */
  public static int pairsNeeded(double runCv, double detectableRatio) {
    if (!(runCv >= 0) || !(detectableRatio > 0) || detectableRatio == 1) {
      throw new IllegalArgumentException(
          "need runCv >= 0 and a detectable ratio other than 1, but got runCv="
              + runCv
              + ", ratio="
              + detectableRatio);
    }
    double pairSd = Math.sqrt(2) * runCv;
    double effect = Math.abs(Math.log(detectableRatio));
    for (int n = MIN_VALIDATION_PAIRS; n <= MAX_VALIDATION_PAIRS; n++) {
      if (tQuantile(n - 1) * pairSd / Math.sqrt(n) < effect) {
        return n;
      }
    }
    return MAX_VALIDATION_PAIRS;
  }

  /**
   * One line for people: "1.21x TPS (1.12 to 1.31), gain", "0.98x TPS (0.91 to 1.06), within
   * noise". For a metric where lower is better ({@code lowerIsBetter}), a ratio below 1 is the
   * gain.
   */
  public static String verdict(Summary.Ratio ratio, String metric, boolean lowerIsBetter) {
    return verdict(ratio, metric, lowerIsBetter, 0);
  }

  /**
   * {@link #verdict(Summary.Ratio, String, boolean)}, where a gain smaller than {@code
   * detectableGain} (a fraction) is not claimed even when the interval excludes 1: "1.03x TPS (1.01
   * to 1.05), below what this validation can detect (6%)".
   */
  public static String verdict(
      Summary.Ratio ratio, String metric, boolean lowerIsBetter, double detectableGain) {
    String claim;
    if (!ratio.excludesOne()) {
      claim = "within noise";
    } else {
      boolean better = lowerIsBetter ? ratio.high() < 1 : ratio.low() > 1;
      double gain = lowerIsBetter ? 1 / ratio.estimate() - 1 : ratio.estimate() - 1;
      if (better && gain < detectableGain) {
        claim =
            String.format(
                Locale.ROOT,
                "below what this validation can detect (%.0f%%)",
                100 * detectableGain);
      } else {
        claim = better ? "gain" : "loss";
      }
    }
    return String.format(
        Locale.ROOT,
        "%.2fx %s (%.2f to %.2f), %s",
        ratio.estimate(),
        metric,
        ratio.low(),
        ratio.high(),
        claim);
  }

  private static double tQuantile(int degreesOfFreedom) {
    return new TDistribution(
            (org.apache.commons.math3.random.RandomGenerator) null, degreesOfFreedom)
        .inverseCumulativeProbability(0.5 + CONFIDENCE / 2);
  }

  private static double mean(double[] values) {
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    return sum / values.length;
  }

  private static double sampleSd(double[] values, double mean) {
    double squares = 0;
    for (double v : values) {
      squares += (v - mean) * (v - mean);
    }
    return Math.sqrt(squares / (values.length - 1));
  }
}
