package org.pgknob.measure;

import java.util.List;

/**
 * The window length that lets a budget detect the smallest gain: longer windows have less noise but
 * leave fewer pairs. Each trial costs {@code overheadSeconds} (reset, ramp-up, checkpoint, restart)
 * plus its window; a comparison spends {@code comparisonSeconds} on pairs of two trials.
 */
public final class WindowChoice {
  /** One window length and what it gives. */
  public record Option(int windowSeconds, int pairs, double smallestGain) {}

  private WindowChoice() {}

  /** What a window of {@code windowSeconds} gives within {@code comparisonSeconds}. */
  public static Option evaluate(
      NoiseComponents noise,
      int windowSeconds,
      double overheadSeconds,
      double comparisonSeconds,
      int pooledDegreesOfFreedom,
      DetectableEffect effect) {
    int pairs = (int) Math.floor(comparisonSeconds / (2 * (overheadSeconds + windowSeconds)));
    double gain =
        effect.smallestGain(
            noise.atWindow(windowSeconds), pairs, pooledDegreesOfFreedom + Math.max(0, pairs - 1));
    return new Option(windowSeconds, pairs, gain);
  }

  /** The candidate window with the smallest detectable gain (the shortest on ties). */
  public static Option best(
      NoiseComponents noise,
      List<Integer> candidateWindows,
      double overheadSeconds,
      double comparisonSeconds,
      int pooledDegreesOfFreedom,
      DetectableEffect effect) {
    Option best = null;
    for (int w : candidateWindows) {
      Option o =
          evaluate(noise, w, overheadSeconds, comparisonSeconds, pooledDegreesOfFreedom, effect);
      if (best == null || o.smallestGain() < best.smallestGain()) {
        best = o;
      }
    }
    if (best == null) {
      throw new IllegalArgumentException("no candidate windows given");
    }
    return best;
  }
}
