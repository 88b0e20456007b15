package org.pgknob.measure;

import java.util.List;

/**
 * Run-to-run noise read from validation's pairs themselves: each candidate's log ratios to the
 * defaults' run of the same round, their squared deviations from the candidate's own mean pooled
 * over the candidates.
 *
 * <p>Why: the session's pooled run noise ({@link PooledNoise}) compares each configuration's runs
 * wherever in the session they ran, so the machine's slow drift counts in it as noise; a pair's two
 * runs are adjacent and the drift cancels in their ratio. On this machine a 60-minute session's
 * pooled noise was 15.9% while its validation pairs varied as runs of 7.3% would (24 degrees of
 * freedom), so its intervals were about twice as wide as its pairs justified. The pairs' spread is
 * the spread the intervals are about.
 *
 * <p>The degrees of freedom are fewer than the pairs' nominal count (never below one candidate's
 * pairs minus one): the candidates of a round share the defaults' run of that round, so their
 * squared deviations move together and carry less information than as many independent pairs. By
 * how much follows from the shared part (Satterthwaite): with k candidates of equal run noise
 * sigma, each coordinate's squared deviation has variance 8 sigma^4 and covaries by 2 sigma^4 with
 * another candidate's, so the pooled sum of squares varies as a chi-square with 4 / (k + 3) of its
 * nominal degrees of freedom: all of them for one candidate, 0.8 for 2, 2/3 for 3, 4/7 for 4 and
 * half for 5, the most a session validates. Until 2026-12-02 they were halved for any k, which for
 * 3 candidates of 3 pairs gave 3 degrees of freedom where the spread has 4, and so left the
 * drift-inflated pooled noise in place in most of the noise benchmark's sessions. In simulated A/A
 * validations (7% noise, 5% of runs 30% low; {@code python3 bench/validation-drop-sim.py}) the
 * share of intervals excluding 1 stayed at 4.2-4.8% over 3 to 10 rounds of 4 candidates.
 *
 * @see PairedRatio#of(double[], double[], double, RunNoise)
 */
public final class PairNoise {
  private PairNoise() {}

  /**
   * The noise of one run implied by the pairs' spread: {@link RunNoise#logSd()} is the pooled sd of
   * a pair's log ratio over sqrt(2) (a pair's log ratio has twice one run's variance), so {@link
   * PairedRatio} turns it back into the pairs' own spread.
   *
   * @param logRatiosByCandidate for each candidate, the log ratio of each of its pairs; candidates
   *     with fewer than 2 pairs carry no spread and are left out
   * @return the noise, with {@link RunNoise#known()} false when no candidate has 2 pairs
   */
  public static RunNoise of(List<double[]> logRatiosByCandidate) {
    double squares = 0;
    int nominal = 0;
    int pairs = 0;
    int candidates = 0;
    int mostPairs = 0;
    for (double[] d : logRatiosByCandidate) {
      if (d.length < 2) {
        continue;
      }
      double mean = Stats.mean(d);
      for (double x : d) {
        squares += (x - mean) * (x - mean);
      }
      nominal += d.length - 1;
      pairs += d.length;
      candidates++;
      mostPairs = Math.max(mostPairs, d.length);
    }
    if (nominal == 0) {
      return new RunNoise(0, 0, pairs, candidates);
    }
    double pairSd = Math.sqrt(squares / nominal);
    int degrees = Math.max(mostPairs - 1, 4 * nominal / (candidates + 3));
    return new RunNoise(pairSd / Math.sqrt(2), degrees, pairs, candidates);
  }
}
