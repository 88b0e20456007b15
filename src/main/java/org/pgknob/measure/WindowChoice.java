package org.pgknob.measure;

import java.util.List;
import java.util.function.IntUnaryOperator;

/**
 * The window length that lets a budget detect the smallest gain: longer windows have less noise but
 * leave fewer pairs. Each trial costs {@code overheadSeconds} (reset, ramp-up, checkpoint, restart)
 * plus its window; a comparison spends {@code comparisonSeconds} on pairs of two trials.
 */
public final class WindowChoice {
  /** One window length and what it gives. */
  public record Option(int windowSeconds, int pairs, double smallestGain) {}

  /** The window chosen, and every candidate as evaluated (in the order given). */
  public record Choice(Option chosen, List<Option> options) {
    public Choice {
      options = List.copyOf(options);
    }

    /** The candidate of {@code windowSeconds}. */
    public Option at(int windowSeconds) {
      return options.stream()
          .filter(o -> o.windowSeconds() == windowSeconds)
          .findFirst()
          .orElseThrow(() -> new IllegalArgumentException("not a candidate: " + windowSeconds));
    }
  }

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

  /**
   * What a window of {@code windowSeconds} gives with {@code pairs} pairs: the caller knows how
   * many its budget leaves at that window (a session's plan reserves rounds by its own rule).
   */
  public static Option evaluate(
      NoiseComponents noise,
      int windowSeconds,
      int pairs,
      int pooledDegreesOfFreedom,
      DetectableEffect effect) {
    double gain =
        effect.smallestGain(
            noise.atWindow(windowSeconds), pairs, pooledDegreesOfFreedom + Math.max(0, pairs - 1));
    return new Option(windowSeconds, pairs, gain);
  }

  /**
   * The shortest candidate whose detectable gain is within {@code tolerance} (0.1: a tenth) of the
   * smallest any candidate gives. Why not simply the smallest: a longer window costs trials the
   * search could have used, so it must buy a clear gain in what the budget can show.
   *
   * @param candidateWindows window lengths in seconds, shortest first
   * @param pairsAt the pairs the budget leaves at a window (0 when the window does not fit)
   */
  public static Choice choose(
      NoiseComponents noise,
      List<Integer> candidateWindows,
      IntUnaryOperator pairsAt,
      int pooledDegreesOfFreedom,
      DetectableEffect effect,
      double tolerance) {
    if (candidateWindows.isEmpty()) {
      throw new IllegalArgumentException("no candidate windows given");
    }
    List<Option> options = new java.util.ArrayList<>();
    double smallest = Double.POSITIVE_INFINITY;
    for (int w : candidateWindows) {
      Option o = evaluate(noise, w, pairsAt.applyAsInt(w), pooledDegreesOfFreedom, effect);
      options.add(o);
      smallest = Math.min(smallest, o.smallestGain());
    }
    Option chosen = options.get(0);
    for (Option o : options) {
      if (o.smallestGain() <= smallest * (1 + tolerance)) {
        chosen = o;
        break;
      }
    }
    return new Choice(chosen, options);
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
