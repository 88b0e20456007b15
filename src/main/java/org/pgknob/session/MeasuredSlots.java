package org.pgknob.session;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.pgknob.measure.RaceRule;
import org.pgknob.measure.ReferenceSchedule;
import org.pgknob.measure.RunNoise;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Track;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * Which run fills a slot of a track's Bayesian phase: a run of a race, a reference run (of the
 * defaults or of the track's incumbent), or the slot's own new proposal. Decided from the trials
 * logged before the slot alone, so a resumed session fills every slot as the uninterrupted one did.
 *
 * <ul>
 *   <li><b>Races</b> (SMAC's intensification): once the track's first {@link #WARMUP_PROPOSALS}
 *       proposals are measured (its anchors, or the start of its design: a race after the first
 *       would keep the others from ever running in a short session), the best-looking proposal not
 *       raced yet is a challenger when its drift-corrected value beats the track's incumbent by
 *       more than one run's noise. The following slots run the incumbent and the challenger in
 *       adjacent pairs until {@link RaceRule} decides or the race's cap is reached; a challenger
 *       that wins becomes the incumbent. The first incumbent is the defaults, so the first races
 *       are paired evidence against the baseline. A race takes at most two thirds of the track's
 *       slots left at its start (and at most the plan's cap): the rest stay proposals. A race that
 *       would start a pair in the track's last slot ends there (the incumbent stays).
 *   <li><b>The first race is between the two best-looking first proposals</b> (the anchors: the
 *       configurations a DBA would try), once the best of them looks better than the defaults: in a
 *       short session the track has room for one race only, and the pick that matters is which
 *       anchor, not whether an anchor beats the defaults (validation measures that). A race against
 *       the defaults that stays undecided leaves the pick to the model's best posterior mean, a
 *       point measured once; a race between the anchors always ends with one of them as the
 *       incumbent, the one the paired runs favour ({@link Race#winner}).
 *   <li><b>References</b>: a reference run is due when the trials since the last one exceed the
 *       interval {@link ReferenceSchedule} derives from the drift and noise seen so far. Reference
 *       runs alternate between the defaults and the track's incumbent (its last race winner, else
 *       its best-looking proposal, once one looks better than the defaults): the drift model reads
 *       both through their ratios, and the incumbent's repeated runs show whether its lead was
 *       luck. Every run of the defaults counts as a reference (baseline, races, validation).
 * </ul>
 *
 * A configuration whose runs disagree beyond the noise ({@link SessionMeasurements#unstable}) is
 * ranked by its worst run wherever this class ranks: the best-looking proposal and the incumbent's
 * value a challenger must beat. Races are on the session's objective; the other objective only
 * learns from the runs.
 */
final class MeasuredSlots {
  /** Proposals of a track measured before its first race (the anchors are at most three). */
  static final int WARMUP_PROPOSALS = 3;

  private final SessionPlan plan;
  private final List<Step> slots;
  private final ReferenceSchedule schedule;

  MeasuredSlots(SessionPlan plan) {
    this.plan = plan;
    this.slots = plan.steps();
    SessionPlan.Racing r = plan.racing();
    this.schedule =
        new ReferenceSchedule(r.shortestReferenceInterval(), r.longestReferenceInterval());
  }

  /** The run for this Bayesian slot, after the trials {@code before} it. */
  Step fill(Step slot, List<TrialResult> before) {
    Goal objective = objective();
    TrackState state = replay(slot.track(), before, objective);
    int slotsLeft = slot.count() - slot.index() + 1;
    if (state.race != null) {
      Race race = state.race;
      if (race.pendingIncumbent != null) {
        return slot.as(
            Phase.RACE, new Step.RaceRun(true, race.challenger, race.incumbentValues.size() + 1));
      }
      if (slotsLeft >= 2) {
        return slot.as(
            Phase.RACE, new Step.RaceRun(false, race.incumbent, race.incumbentValues.size() + 1));
      }
    }
    SessionMeasurements m = new SessionMeasurements(before, objective);
    int lastDefaults = 0;
    int lastIncumbentReference = 0;
    for (TrialResult t : before) {
      if (t.isOk() && t.settings().isEmpty()) {
        lastDefaults = t.trial();
      }
      if (t.phase() == Phase.REFERENCE && !t.settings().isEmpty()) {
        lastIncumbentReference = t.trial();
      }
    }
    int interval =
        schedule.interval(
            m.drift().driftPerTime(m.noise(), schedule.shortestInterval()), m.noise());
    if (slot.trial() - Math.max(lastDefaults, lastIncumbentReference) <= interval) {
      return slot;
    }
    Optional<Integer> incumbent = referenceIncumbent(state, before, objective);
    if (incumbent.isPresent() && lastIncumbentReference < lastDefaults) {
      return slot.asIncumbentReference(incumbent.get());
    }
    return slot.as(Phase.REFERENCE, null);
  }

  /**
   * The track's incumbent after these trials: the trial whose configuration won the track's last
   * race, or empty while the defaults hold (no race won yet).
   */
  Optional<Integer> incumbent(Track track, List<TrialResult> trials) {
    int incumbent = replay(track, trials, objective()).incumbent;
    return incumbent == 0 ? Optional.empty() : Optional.of(incumbent);
  }

  /**
   * The configuration an incumbent reference run repeats: the last race winner, else the
   * best-looking proposal of the track when it looks better than the defaults.
   */
  private Optional<Integer> referenceIncumbent(
      TrackState state, List<TrialResult> before, Goal objective) {
    if (state.incumbent != 0) {
      return Optional.of(state.incumbent);
    }
    SessionMeasurements m = new SessionMeasurements(before, objective);
    if (!m.drift().known()) {
      return Optional.empty();
    }
    Optional<Integer> best = bestLooking(state.proposals, Set.of(), before, m, objective);
    return best.filter(b -> gain(rankingLog(b, before, m, objective), 0, objective) > 0);
  }

  /** The track's incumbent and any race under way, from the track's logged Bayesian slots. */
  private TrackState replay(Track track, List<TrialResult> trials, Goal objective) {
    TrackState state = new TrackState();
    Set<Integer> raced = new HashSet<>();
    for (int i = 0; i < trials.size(); i++) {
      TrialResult t = trials.get(i);
      if (track != t.track()) {
        continue;
      }
      List<TrialResult> upTo = trials.subList(0, i + 1);
      if (t.phase() == Phase.BAYES) {
        if (t.isOk()) {
          state.proposals.add(t.trial());
        }
        if (state.race == null && state.proposals.size() >= WARMUP_PROPOSALS) {
          int cap = raceCap(t.trial());
          SessionMeasurements m = new SessionMeasurements(upTo, objective);
          Optional<Integer> challenger = bestLooking(state.proposals, raced, upTo, m, objective);
          if (cap >= RaceRule.MIN_PAIRS
              && challenger.isPresent()
              && looksBetter(challenger.get(), state.incumbent, upTo, m, objective)) {
            Optional<Integer> runnerUp =
                raced.isEmpty() && state.incumbent == 0
                    ? bestLooking(state.proposals, Set.of(challenger.get()), upTo, m, objective)
                    : Optional.empty();
            state.race =
                runnerUp.isPresent()
                    ? Race.ofAnchors(
                        challenger.get(), runnerUp.get(), Math.min(cap, RaceRule.MIN_PAIRS))
                    : new Race(state.incumbent, challenger.get(), cap);
            raced.add(challenger.get());
            runnerUp.ifPresent(raced::add);
          }
        }
      } else if (t.phase() == Phase.RACE && state.race != null) {
        Race race = state.race;
        if (!t.isOk()) {
          state.race = null; // a failed run ends the race; the incumbent stays
        } else if (race.pendingIncumbent == null) {
          race.pendingIncumbent = Objectives.value(t, objective);
        } else {
          race.incumbentValues.add(race.pendingIncumbent);
          race.challengerValues.add(Objectives.value(t, objective));
          race.pendingIncumbent = null;
          RunNoise noise = new SessionMeasurements(upTo, objective).noise();
          RaceRule.Decision d =
              new RaceRule(plan.racing().errorRate(), race.cap)
                  .decide(
                      race.incumbentValues.stream().mapToDouble(Double::doubleValue).toArray(),
                      race.challengerValues.stream().mapToDouble(Double::doubleValue).toArray(),
                      objective == Goal.TPS,
                      noise);
          if (d != RaceRule.Decision.CONTINUE) {
            state.incumbent = race.winner(d, objective);
            state.race = null;
          }
        }
      }
    }
    return state;
  }

  /**
   * The most pairs a race starting after trial {@code trial} may take: two thirds of the track's
   * slots left after it, at most the plan's cap.
   */
  private int raceCap(int trial) {
    Step slot = slots.get(trial - 1);
    int slotsLeft = slot.count() - slot.index();
    return Math.min(plan.racing().maxPairs(), (2 * slotsLeft / 3) / 2);
  }

  /**
   * Of these proposals, leaving out {@code excluded}, the one whose runs rank best by their
   * drift-corrected values ({@link #rankingLog}); empty when none is left.
   */
  private static Optional<Integer> bestLooking(
      List<Integer> proposals,
      Set<Integer> excluded,
      List<TrialResult> upTo,
      SessionMeasurements m,
      Goal objective) {
    Integer best = null;
    double bestGain = Double.NEGATIVE_INFINITY;
    for (int p : proposals) {
      if (excluded.contains(p)) {
        continue;
      }
      double g = gain(rankingLog(p, upTo, m, objective), 0, objective);
      if (g > bestGain) {
        best = p;
        bestGain = g;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * True when the challenger's drift-corrected value beats the incumbent's (both ranked by {@link
   * #rankingLog}; the defaults' level is 1) by more than one run's noise.
   */
  private static boolean looksBetter(
      int challenger,
      int incumbent,
      List<TrialResult> upTo,
      SessionMeasurements m,
      Goal objective) {
    if (!m.drift().known()) {
      return false;
    }
    double reference = incumbent == 0 ? 0 : rankingLog(incumbent, upTo, m, objective);
    double margin = m.noise().known() ? m.noise().logSd() : 0;
    return gain(rankingLog(challenger, upTo, m, objective), reference, objective) > margin;
  }

  /**
   * The log of what trial {@code trial}'s configuration is ranked by, relative to the defaults'
   * level: over all its runs so far, the geometric mean of their drift-corrected values, or for an
   * unstable configuration its worst run.
   */
  private static double rankingLog(
      int trial, List<TrialResult> upTo, SessionMeasurements m, Goal objective) {
    Map<String, String> settings = settingsOf(trial, upTo);
    List<Double> runs = new ArrayList<>();
    for (TrialResult r : upTo) {
      if (r.isOk() && new TreeMap<>(r.settings()).equals(settings)) {
        runs.add(m.relative(r));
      }
    }
    if (runs.isEmpty()) {
      return Double.NaN;
    }
    if (m.unstable(settings)) {
      return Math.log(
          objective == Goal.TPS
              ? runs.stream().mapToDouble(Double::doubleValue).min().orElseThrow()
              : runs.stream().mapToDouble(Double::doubleValue).max().orElseThrow());
    }
    return runs.stream().mapToDouble(Math::log).average().orElseThrow();
  }

  /** How much better {@code log} is than {@code reference} for the objective (positive: better). */
  private static double gain(double log, double reference, Goal objective) {
    if (Double.isNaN(log)) {
      return Double.NEGATIVE_INFINITY;
    }
    return objective == Goal.TPS ? log - reference : reference - log;
  }

  private static Map<String, String> settingsOf(int trial, List<TrialResult> trials) {
    for (TrialResult t : trials) {
      if (t.trial() == trial) {
        return new TreeMap<>(t.settings());
      }
    }
    return Map.of();
  }

  private Goal objective() {
    return plan.racing().objective();
  }

  private static final class TrackState {
    int incumbent;
    Race race;
    final List<Integer> proposals = new ArrayList<>();
  }

  private static final class Race {
    final int incumbent;
    final int challenger;
    final int cap;

    /** A race between the track's two best-looking first proposals, not against the defaults. */
    final boolean anchors;

    final List<Double> incumbentValues = new ArrayList<>();
    final List<Double> challengerValues = new ArrayList<>();
    Double pendingIncumbent;

    Race(int incumbent, int challenger, int cap) {
      this(incumbent, challenger, cap, false);
    }

    private Race(int incumbent, int challenger, int cap, boolean anchors) {
      this.incumbent = incumbent;
      this.challenger = challenger;
      this.cap = cap;
      this.anchors = anchors;
    }

    /**
     * The race of the best-looking first proposal (its incumbent side) and the runner-up, of at
     * most {@code cap} pairs: {@link RaceRule#MIN_PAIRS} are enough to see which of two plausible
     * configurations the paired runs favour (no gain is claimed: validation does that), and in a
     * long session the slots after it go to proposals and to reference runs of the defaults.
     */
    static Race ofAnchors(int best, int runnerUp, int cap) {
      return new Race(best, runnerUp, cap, true);
    }

    /**
     * The track's incumbent once the race has ended with {@code decision}. Against the defaults,
     * only a decided win makes the challenger the incumbent. Between two first proposals neither
     * holds a place the other must earn: each was measured once, and the best-looking one's single
     * window is the luckiest of the first ones (the one most likely a noise high or, for the
     * others, a drop); so a race the rule leaves undecided goes to the side its adjacent pairs
     * favour on average (paired runs see the same drift), never to the selection's lucky window.
     */
    int winner(RaceRule.Decision decision, Goal objective) {
      if (decision == RaceRule.Decision.CHALLENGER_WINS) {
        return challenger;
      }
      if (!anchors) {
        return incumbent;
      }
      double sum = 0;
      for (int i = 0; i < challengerValues.size(); i++) {
        sum += Math.log(challengerValues.get(i) / incumbentValues.get(i));
      }
      boolean challengerAhead = objective == Goal.TPS ? sum > 0 : sum < 0;
      return challengerAhead ? challenger : incumbent;
    }
  }
}
