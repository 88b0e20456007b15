package org.pgknob.session;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.pgknob.measure.RaceRule;
import org.pgknob.measure.ReferenceSchedule;
import org.pgknob.measure.RunNoise;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * Which run fills a slot of a track's Bayesian phase: a run of a race, a reference run of the
 * defaults, or the slot's own new proposal. Decided from the trials logged before the slot alone,
 * so a resumed session fills every slot as the uninterrupted one did.
 *
 * <ul>
 *   <li><b>Races</b> (SMAC's intensification): a proposal whose drift-corrected value beats the
 *       track's incumbent by more than one run's noise is a challenger. The following slots run the
 *       incumbent and the challenger in adjacent pairs until {@link RaceRule} decides or the cap is
 *       reached; a challenger that wins becomes the incumbent. The first incumbent is the defaults,
 *       so the first races are paired evidence against the baseline. A race that would start a pair
 *       in the track's last slot ends there (the incumbent stays).
 *   <li><b>References</b>: the defaults run again when the trials since their last run exceed the
 *       interval {@link ReferenceSchedule} derives from the drift and noise seen so far. Every run
 *       of the defaults counts (baseline, references, races against the defaults).
 * </ul>
 *
 * Races are on the session's objective; the other objective only learns from the runs.
 */
final class MeasuredSlots {
  private final SessionPlan plan;
  private final RaceRule rule;
  private final ReferenceSchedule schedule;

  MeasuredSlots(SessionPlan plan) {
    this.plan = plan;
    SessionPlan.Racing r = plan.racing();
    this.rule = new RaceRule(r.errorRate(), r.maxPairs());
    this.schedule =
        new ReferenceSchedule(r.shortestReferenceInterval(), r.longestReferenceInterval());
  }

  /** The run for this Bayesian slot, after the trials {@code before} it. */
  Step fill(Step slot, List<TrialResult> before) {
    String objective = objectiveOf(before);
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
    if (referenceDue(slot, before)) {
      return slot.as(Phase.REFERENCE, null);
    }
    return slot;
  }

  /**
   * The track's incumbent after these trials: the trial whose configuration won the track's last
   * race, or empty while the defaults hold (no race won yet).
   */
  Optional<Integer> incumbent(String track, List<TrialResult> trials) {
    int incumbent = replay(track, trials, objectiveOf(trials)).incumbent;
    return incumbent == 0 ? Optional.empty() : Optional.of(incumbent);
  }

  private boolean referenceDue(Step slot, List<TrialResult> before) {
    int lastDefaults = 0;
    for (TrialResult t : before) {
      if (t.isOk() && t.settings().isEmpty()) {
        lastDefaults = t.trial();
      }
    }
    SessionMeasurements m = new SessionMeasurements(before, objectiveOf(before));
    int interval =
        schedule.interval(
            m.drift().driftPerTime(m.noise(), schedule.shortestInterval()), m.noise());
    return slot.trial() - lastDefaults > interval;
  }

  /** The track's incumbent and any race under way, from the track's logged Bayesian slots. */
  private TrackState replay(String track, List<TrialResult> trials, String objective) {
    TrackState state = new TrackState();
    for (int i = 0; i < trials.size(); i++) {
      TrialResult t = trials.get(i);
      if (!track.equals(t.track())) {
        continue;
      }
      List<TrialResult> upTo = trials.subList(0, i + 1);
      if (t.phase() == Phase.BAYES && state.race == null) {
        if (t.isOk() && looksBetter(t, state.incumbent, upTo, objective)) {
          state.race = new Race(state.incumbent, t.trial());
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
              rule.decide(
                  race.incumbentValues.stream().mapToDouble(Double::doubleValue).toArray(),
                  race.challengerValues.stream().mapToDouble(Double::doubleValue).toArray(),
                  Objectives.TPS.equals(objective),
                  noise);
          if (d == RaceRule.Decision.CHALLENGER_WINS) {
            state.incumbent = race.challenger;
          }
          if (d != RaceRule.Decision.CONTINUE) {
            state.race = null;
          }
        }
      }
    }
    return state;
  }

  /**
   * True when the trial's drift-corrected value beats the incumbent's (the geometric mean of its
   * runs, or the defaults' level) by more than one run's noise.
   */
  private static boolean looksBetter(
      TrialResult t, int incumbent, List<TrialResult> upTo, String objective) {
    SessionMeasurements m = new SessionMeasurements(upTo, objective);
    if (!m.drift().known()) {
      return false;
    }
    double challenger = Math.log(m.relative(t));
    double reference = 0;
    if (incumbent != 0) {
      Map<String, String> settings = settingsOf(incumbent, upTo);
      double sum = 0;
      int n = 0;
      for (TrialResult r : upTo) {
        if (r.isOk() && r.trial() != t.trial() && new TreeMap<>(r.settings()).equals(settings)) {
          sum += Math.log(m.relative(r));
          n++;
        }
      }
      reference = n == 0 ? 0 : sum / n;
    }
    double margin = m.noise().known() ? m.noise().logSd() : 0;
    double gain =
        Objectives.TPS.equals(objective) ? challenger - reference : reference - challenger;
    return gain > margin;
  }

  private static Map<String, String> settingsOf(int trial, List<TrialResult> trials) {
    for (TrialResult t : trials) {
      if (t.trial() == trial) {
        return new TreeMap<>(t.settings());
      }
    }
    return Map.of();
  }

  private String objectiveOf(List<TrialResult> trials) {
    return plan.racing().objective();
  }

  private static final class TrackState {
    int incumbent;
    Race race;
  }

  private static final class Race {
    final int incumbent;
    final int challenger;
    final List<Double> incumbentValues = new ArrayList<>();
    final List<Double> challengerValues = new ArrayList<>();
    Double pendingIncumbent;

    Race(int incumbent, int challenger) {
      this.incumbent = incumbent;
      this.challenger = challenger;
    }
  }
}
