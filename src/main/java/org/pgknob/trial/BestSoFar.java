package org.pgknob.trial;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import org.pgknob.runs.Track;

/**
 * The best trial so far per track, as the console prints it after each trial and the report's
 * convergence chart draws it: one definition for both, so they never disagree.
 *
 * <p>Every successful trial counts in its own track (baseline and reference runs of the defaults,
 * sweeps, Bayesian proposals, race runs, the PGTune-style row), except validation runs: they
 * re-measure configurations already found, so a lucky validation run is no new best.
 */
public final class BestSoFar {
  /** The phase whose runs never count, as trials.jsonl writes it. */
  private final ToDoubleFunction<TrialResult> metric;

  private final boolean higherIsBetter;
  private final Predicate<TrialResult> measured;
  private final Map<Track, TrialResult> byTrack = new EnumMap<>(Track.class);
  private Track defaultsTrack; // null: a baseline run counts in the track it was logged with

  private BestSoFar(
      ToDoubleFunction<TrialResult> metric,
      boolean higherIsBetter,
      Predicate<TrialResult> measured) {
    this.metric = metric;
    this.higherIsBetter = higherIsBetter;
    this.measured = measured;
  }

  /** Highest window TPS. */
  public static BestSoFar tps() {
    return new BestSoFar(t -> t.workload().tps(), true, t -> true);
  }

  /**
   * Lowest average latency. A trial whose workload reported none (a benchmark command that prints
   * TPS alone: 0 ms) is no best: it did not measure the latency.
   */
  public static BestSoFar averageLatency() {
    return new BestSoFar(
        t -> t.workload().overall().avgMs(), false, t -> t.workload().overall().avgMs() > 0);
  }

  /**
   * Makes the baseline's runs of the defaults count in {@code track}, the session's first: they are
   * logged as the reload track's, so a session that tunes the restart track alone printed "best
   * window so far: reload ..." and drew a reload line it never searched. Call it before the first
   * {@link #offer}.
   */
  public BestSoFar defaultsCountIn(Track track) {
    this.defaultsTrack = track;
    return this;
  }

  /** The track {@code t} counts in: its own, or for a baseline run the session's first. */
  public Track trackOf(TrialResult t) {
    return t.phase() == Phase.BASELINE && defaultsTrack != null ? defaultsTrack : t.track();
  }

  /** Whether {@code t} can be a best: it succeeded, has a track, and is no validation run. */
  public static boolean counts(TrialResult t) {
    return t.isOk() && t.track() != null && t.phase() != Phase.VALIDATION;
  }

  /**
   * Takes {@code t} in run order; a tie keeps the earlier trial.
   *
   * @return true when {@code t} counts (whether or not it became the best)
   */
  public boolean offer(TrialResult t) {
    if (!counts(t) || !measured.test(t)) {
      return false;
    }
    byTrack.merge(trackOf(t), t, (old, now) -> better(now, old) ? now : old);
    return true;
  }

  private boolean better(TrialResult now, TrialResult old) {
    double a = metric.applyAsDouble(now);
    double b = metric.applyAsDouble(old);
    return higherIsBetter ? a > b : a < b;
  }

  /** The best of {@code track} so far. */
  public Optional<TrialResult> best(Track track) {
    return Optional.ofNullable(byTrack.get(track));
  }

  /** The metric's value of {@code t}. */
  public double valueOf(TrialResult t) {
    return metric.applyAsDouble(t);
  }

  /** Each track's best so far, by track name. */
  public Map<Track, TrialResult> byTrack() {
    return Collections.unmodifiableMap(byTrack);
  }
}
