package org.pgknob.measure;

import java.util.Collection;

/**
 * One run-to-run noise estimate pooled from every configuration the session ran more than once
 * (baselines, reference runs, race re-runs, validation rounds).
 *
 * <p>Why pool: three back-to-back baseline runs understate the noise several times over (they share
 * the machine's state of those minutes); runs of many configurations spread over the whole session
 * see its real variation. Each configuration contributes its squared deviations from its own mean,
 * so differences between configurations do not count as noise. On logs, so a 5% wobble of a fast
 * configuration weighs as much as one of a slow one.
 */
public final class PooledNoise {
  private PooledNoise() {}

  /**
   * The pooled noise of groups of repeated runs; each group holds the values (all positive) of one
   * configuration. Groups of one run carry no information on noise and are left out.
   */
  public static RunNoise of(Collection<double[]> groups) {
    double squares = 0;
    int df = 0;
    int runs = 0;
    int repeated = 0;
    for (double[] g : groups) {
      if (g.length < 2) {
        continue;
      }
      runs += g.length;
      double[] logs = Stats.logs(g);
      double m = Stats.mean(logs);
      for (double v : logs) {
        squares += (v - m) * (v - m);
      }
      df += g.length - 1;
      repeated++;
    }
    return new RunNoise(df == 0 ? 0 : Math.sqrt(squares / df), df, runs, repeated);
  }
}
