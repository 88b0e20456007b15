package org.pgknob.session;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.pgknob.measure.LoneDrop;
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
 *       slots left at its start (and at most the plan's cap): the rest stay proposals. The first
 *       race (below) takes its two pairs whenever four slots are left. A race that would start a
 *       pair in the track's last slot ends there (the incumbent stays).
 *   <li><b>The first race is between the two best-looking first proposals</b> (the anchors: the
 *       configurations a DBA would try), once the best of them looks better than the defaults: in a
 *       short session the track has room for one race only, and the pick that matters is which
 *       anchor, not whether an anchor beats the defaults (validation measures that). A race against
 *       the defaults that stays undecided leaves the pick to the model's best posterior mean, a
 *       point measured once; a race between the anchors always ends with one of them as the
 *       incumbent, the one the paired runs favour ({@link Race#winner}).
 *   <li><b>A first proposal below the runner-up by what noise or a drop explains runs again</b>
 *       before that race, when the track's slots hold the run and the race's two pairs ({@link
 *       #anchorToRecheck}): one window low by noise or a drop would keep the best first proposal
 *       out of the race; a configuration's lone drop is left out of every ranking here ({@link
 *       LoneDrop}).
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

  /**
   * The slots the first race takes: {@link RaceRule#MIN_PAIRS} adjacent pairs. It runs whenever
   * they are left, beyond the two-thirds cap of later races: it decides the pick of a short session
   * (which first proposal), where the slots it leaves would only add single windows to the model.
   */
  static final int ANCHOR_RACE_SLOTS = 2 * RaceRule.MIN_PAIRS;

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
    if (state.recheck != 0) {
      return slot.asAnchorRecheck(state.recheck);
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
        if (state.race == null
            && state.recheck == 0
            && state.proposals.size() >= WARMUP_PROPOSALS) {
          startRace(track, state, raced, t.trial(), upTo, objective);
        }
      } else if (t.phase() == Phase.REFERENCE && state.recheck != 0) {
        // the slot after a recheck is decided is always the recheck (fill), so this run is it
        state.recheck = 0;
        startRace(track, state, raced, t.trial(), upTo, objective);
      } else if (t.phase() == Phase.RACE && state.race != null) {
        Race race = state.race;
        if (!t.isOk()) {
          state.race = null; // a failed run ends the race; the incumbent stays
        } else if (race.pendingIncumbent == null) {
          race.pendingIncumbent = Objectives.value(t, objective);
          race.pendingIncumbentTrial = t.trial();
        } else {
          race.incumbentValues.add(race.pendingIncumbent);
          race.incumbentTrials.add(race.pendingIncumbentTrial);
          race.challengerValues.add(Objectives.value(t, objective));
          race.challengerTrials.add(t.trial());
          race.pendingIncumbent = null;
          SessionMeasurements m = new SessionMeasurements(upTo, objective);
          RunNoise noise = m.noise();
          RaceRule.Decision d =
              new RaceRule(plan.racing().errorRate(), race.cap)
                  .decide(
                      race.incumbentValues.stream().mapToDouble(Double::doubleValue).toArray(),
                      race.challengerValues.stream().mapToDouble(Double::doubleValue).toArray(),
                      objective == Goal.TPS,
                      noise);
          if (d != RaceRule.Decision.CONTINUE) {
            Set<Integer> drops = new HashSet<>();
            if (race.anchors) {
              drops.add(loneDropTrial(race.incumbent, upTo, m, objective));
              drops.add(loneDropTrial(race.challenger, upTo, m, objective));
            }
            state.incumbent = race.winner(d, objective, drops);
            state.race = null;
          }
        }
      }
    }
    return state;
  }

  /**
   * Starts a race after trial {@code trial} when the track's best-looking proposal not raced yet
   * looks better than its incumbent by more than one run's noise. The track's first race is between
   * its two best-looking proposals ({@link Race#ofAnchors}). On the restart track, whose first
   * proposals are a DBA's configurations ({@link BayesAnchors}: the sweep's best values,
   * PGTune-style whole, and both together, three whenever a restart knob's sweep showed an effect),
   * that race takes its two pairs whenever four slots are left, and before it a first proposal
   * whose one window lies far below the runner-up's is measured once more ({@link
   * #anchorToRecheck}) when the slots hold that run and the race. On the reload track the first
   * proposals are PGTune-style's reload settings and the model's first design points, and the
   * model's later proposals are where its gain comes from: its first race stays within two thirds
   * of the slots left, as any race.
   */
  private void startRace(
      Track track,
      TrackState state,
      Set<Integer> raced,
      int trial,
      List<TrialResult> upTo,
      Goal objective) {
    SessionMeasurements m = new SessionMeasurements(upTo, objective);
    Optional<Integer> challenger = bestLooking(state.proposals, raced, upTo, m, objective);
    Optional<Integer> runnerUp =
        challenger.isPresent() && raced.isEmpty() && state.incumbent == 0
            ? bestLooking(state.proposals, Set.of(challenger.get()), upTo, m, objective)
            : Optional.empty();
    // The race of the first proposals, once they are measured, asks which anchor, not whether one
    // beats the defaults (validation measures that): any lead over the defaults is enough then.
    // With the margin of one run's noise, a noise inflated by drift (15% in a noise-bench session)
    // kept that race from running, and the pick fell to the model's posterior mean, which a 30%
    // drop of the best anchor had pulled down: a sweep point worth a fifth of the gain was
    // validated. Later proposals need the margin: a drift correction's small errors would
    // otherwise start a race between two proposals below the defaults.
    boolean anchorsJustMeasured =
        runnerUp.isPresent() && state.proposals.size() == WARMUP_PROPOSALS;
    if (challenger.isEmpty()
        || !looksBetter(
            challenger.get(), state.incumbent, upTo, m, objective, !anchorsJustMeasured)) {
      return;
    }
    int slotsLeft = slotsLeftAfter(trial);
    if (runnerUp.isPresent() && track != Track.RESTART) {
      int cap = Math.min(raceCap(slotsLeft), RaceRule.MIN_PAIRS);
      if (cap >= RaceRule.MIN_PAIRS) {
        state.race = Race.ofAnchors(challenger.get(), runnerUp.get(), cap);
        raced.add(challenger.get());
        raced.add(runnerUp.get());
      }
      return;
    }
    if (runnerUp.isPresent()) {
      if (!state.anchorsRechecked && slotsLeft >= 1 + ANCHOR_RACE_SLOTS) {
        state.anchorsRechecked = true;
        state.recheck =
            anchorToRecheck(
                state,
                Set.of(challenger.get(), runnerUp.get()),
                runnerUp.get(),
                upTo,
                m,
                objective);
        if (state.recheck != 0) {
          return;
        }
      }
      if (slotsLeft >= ANCHOR_RACE_SLOTS && plan.racing().maxPairs() >= RaceRule.MIN_PAIRS) {
        state.race = Race.ofAnchors(challenger.get(), runnerUp.get(), RaceRule.MIN_PAIRS);
        raced.add(challenger.get());
        raced.add(runnerUp.get());
      }
      return;
    }
    int cap = raceCap(slotsLeft);
    if (cap >= RaceRule.MIN_PAIRS) {
      state.race = new Race(state.incumbent, challenger.get(), cap);
      raced.add(challenger.get());
    }
  }

  /**
   * Of the track's first {@link #WARMUP_PROPOSALS} proposals left out of the first race, the first
   * one measured once whose drift-corrected window lies below the runner-up's by what a drop
   * explains (more than {@link LoneDrop}'s 18%) or by what bad luck explains (more than one run's
   * noise, at most two standard deviations of the difference of two windows): 0 when none. Why: the
   * race picks between the two best-looking first proposals by one window each, and a window can
   * lose 30% to something of its own (a drop) or 15% to noise alone; either keeps the best first
   * proposal out of the race for good. Drops alone were measured again before: in a noise-bench
   * session PGTune-style with the sweep's shared_buffers (the optimum) ran 16% below a design point
   * in its one window under a noise of about 10%, stayed out, and the pick was PGTune-style's 70%
   * of the gain. A gap beyond that and short of a drop is a worse configuration, and one within the
   * noise a tie that one more window would not settle: neither is run again. The run costs one slot
   * of a track that holds it and the race's two pairs, where the slot would hold a proposal too
   * late to be raced; with a lone drop then left out of the ranking ({@link #rankingLog}), one more
   * run tells a drop or bad luck from a worse configuration, and a worse one still stays out.
   */
  private static int anchorToRecheck(
      TrackState state,
      Set<Integer> racing,
      int runnerUp,
      List<TrialResult> upTo,
      SessionMeasurements m,
      Goal objective) {
    double bar = gain(rankingLog(runnerUp, upTo, m, objective), 0, objective);
    // beyond one run's noise, and within two standard deviations of the difference of two windows
    double sd = m.noise().known() ? m.noise().logSd() : Double.NaN;
    for (int a : state.proposals.subList(0, WARMUP_PROPOSALS)) {
      if (racing.contains(a) || runsOf(a, upTo) != 1) {
        continue;
      }
      double own = gain(rankingLog(a, upTo, m, objective), 0, objective);
      double gap = bar - own;
      if (Double.isFinite(gap)
          && (gap > LoneDrop.THRESHOLD || (gap > sd && gap <= 2 * Math.sqrt(2) * sd))) {
        return a;
      }
    }
    return 0;
  }

  /**
   * The trial of the run of trial {@code trial}'s configuration that {@link LoneDrop} leaves out of
   * its drift-corrected runs (a drop: its worst, far below the others), or 0 when none.
   */
  private static int loneDropTrial(
      int trial, List<TrialResult> upTo, SessionMeasurements m, Goal objective) {
    Map<String, String> settings = settingsOf(trial, upTo);
    List<Integer> trials = new ArrayList<>();
    List<Double> runs = new ArrayList<>();
    for (TrialResult r : upTo) {
      if (r.isOk() && new TreeMap<>(r.settings()).equals(settings)) {
        trials.add(r.trial());
        runs.add(m.relative(r));
      }
    }
    int out =
        LoneDrop.of(
            runs.stream().mapToDouble(Double::doubleValue).toArray(), objective == Goal.TPS);
    return out < 0 ? 0 : trials.get(out);
  }

  /** How many successful runs the configuration of trial {@code trial} has among these trials. */
  private static int runsOf(int trial, List<TrialResult> trials) {
    Map<String, String> settings = settingsOf(trial, trials);
    int runs = 0;
    for (TrialResult t : trials) {
      if (t.isOk() && new TreeMap<>(t.settings()).equals(settings)) {
        runs++;
      }
    }
    return runs;
  }

  /** The track's slots left after trial {@code trial}. */
  private int slotsLeftAfter(int trial) {
    Step slot = slots.get(trial - 1);
    return slot.count() - slot.index();
  }

  /**
   * The most pairs a race against the incumbent may take with {@code slotsLeft} of the track's
   * slots left at its start: two thirds of them, at most the plan's cap.
   */
  private int raceCap(int slotsLeft) {
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
   * #rankingLog}; the defaults' level is 1), by more than one run's noise when {@code
   * byMoreThanNoise}.
   */
  private static boolean looksBetter(
      int challenger,
      int incumbent,
      List<TrialResult> upTo,
      SessionMeasurements m,
      Goal objective,
      boolean byMoreThanNoise) {
    if (!m.drift().known()) {
      return false;
    }
    double reference = incumbent == 0 ? 0 : rankingLog(incumbent, upTo, m, objective);
    double margin = byMoreThanNoise && m.noise().known() ? m.noise().logSd() : 0;
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
    double[] kept =
        LoneDrop.without(
            runs.stream().mapToDouble(Double::doubleValue).toArray(), objective == Goal.TPS);
    if (m.unstableBeyondOneDrop(settings)) {
      return Math.log(
          objective == Goal.TPS
              ? Arrays.stream(kept).min().orElseThrow()
              : Arrays.stream(kept).max().orElseThrow());
    }
    return Arrays.stream(kept).map(Math::log).average().orElseThrow();
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

    /** A first proposal to measure once more before the first race (0: none). */
    int recheck;

    /** True once the first proposals were looked at for a recheck (at most one per track). */
    boolean anchorsRechecked;

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

    /** The trials of the pairs' runs, in the order of the values above. */
    final List<Integer> incumbentTrials = new ArrayList<>();

    final List<Integer> challengerTrials = new ArrayList<>();
    Double pendingIncumbent;
    int pendingIncumbentTrial;

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
     * favour on average (paired runs see the same drift), never to the selection's lucky window. A
     * pair with a drop in it ({@code drops}: the trials of runs far below the other runs of their
     * configuration, {@link LoneDrop}) is left out of that average while another pair is left: a
     * 30% drop in one of two pairs outweighs a true difference of 10% in the other.
     */
    int winner(RaceRule.Decision decision, Goal objective, Set<Integer> drops) {
      if (decision == RaceRule.Decision.CHALLENGER_WINS) {
        return challenger;
      }
      if (!anchors) {
        return incumbent;
      }
      double sum = 0;
      double withoutDrops = 0;
      int kept = 0;
      for (int i = 0; i < challengerValues.size(); i++) {
        double log = Math.log(challengerValues.get(i) / incumbentValues.get(i));
        sum += log;
        if (!drops.contains(incumbentTrials.get(i)) && !drops.contains(challengerTrials.get(i))) {
          withoutDrops += log;
          kept++;
        }
      }
      if (kept > 0) {
        sum = withoutDrops;
      }
      boolean challengerAhead = objective == Goal.TPS ? sum > 0 : sum < 0;
      return challengerAhead ? challenger : incumbent;
    }
  }
}
