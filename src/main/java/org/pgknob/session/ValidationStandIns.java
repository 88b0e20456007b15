package org.pgknob.session;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.pgknob.runs.Goal;
import org.pgknob.runs.ResultKey;
import org.pgknob.runs.Track;

/**
 * Picks the plan did not validate that take the validation runs of picks found to be left out.
 *
 * <p>Why: the plan chooses what to validate before the search, from the budget: each track's pick
 * on the objective and PGTune-style first, the other objective's picks when the budget holds them.
 * When the search finds nothing better than the defaults on the objective, those picks are left out
 * (never measured against themselves), the rounds hold fewer runs and validation ends early, while
 * the latency picks, which may differ, stay unvalidated. A default session on the managed server
 * ended 5 minutes early that way, its latency rows "not validated". A stand-in takes a left-out
 * pick's runs: a round never holds more runs than the plan's, and the pick it stands in for keeps
 * its row ("no change found").
 *
 * <p>How: once the search is over and before validation's first run, the picks of the session's
 * tracks that the plan does not validate, the objective's first, then the other's, each in the
 * plan's order of tracks (the last track first), are added while left-out picks remain: each only
 * when its settings change something and are not those of a pick validated already, each in the
 * place of a left-out pick of its own track when there is one, else of the first left out. The plan
 * is then recorded in session.json, so a resumed session validates the same.
 */
final class ValidationStandIns {
  private ValidationStandIns() {}

  /**
   * The plan with stand-ins added, or {@code plan} itself when no pick is left out, every left-out
   * pick has its stand-in, or no other pick qualifies.
   *
   * @param tracks the session's tracks, in the order they run
   * @param objective the session's objective
   * @param leftOut the picks among a list of validations that validation leaves out: those whose
   *     settings change nothing, and those whose settings are an earlier pick's of the list
   */
  static SessionPlan added(
      SessionPlan plan,
      List<Track> tracks,
      Goal objective,
      Function<List<SessionPlan.Validation>, Set<String>> leftOut) {
    if (plan.validating() == null) {
      return plan;
    }
    List<SessionPlan.Validation> all = new ArrayList<>(plan.validations());
    List<SessionPlan.Validation> free = free(all, leftOut.apply(all));
    List<SessionPlan.Validation> added = new ArrayList<>();
    for (SessionPlan.Validation candidate : candidates(tracks, objective)) {
      if (free.isEmpty()) {
        break;
      }
      if (plan.validation(candidate.name()).isPresent()) {
        continue;
      }
      SessionPlan.Validation replaced = replaced(free, candidate.track());
      SessionPlan.Validation standIn =
          new SessionPlan.Validation(
              candidate.name(), candidate.track(), Map.of(), replaced.name());
      all.add(standIn);
      if (leftOut.apply(all).contains(standIn.name())) {
        all.remove(all.size() - 1); // the defaults, or a pick validated already
      } else {
        added.add(standIn);
        free.remove(replaced);
      }
    }
    return added.isEmpty() ? plan : plan.withStandIns(added);
  }

  /**
   * " validation: reload/latency takes the runs of reload/tps, which is left out (the defaults, or
   * the same settings as PGTune-style or a pick validated)", one line per stand-in that {@code
   * after} adds.
   */
  static Optional<String> line(SessionPlan before, SessionPlan after) {
    List<String> lines = new ArrayList<>();
    for (SessionPlan.Validation v : after.validations()) {
      if (v.inPlaceOf() != null && before.validation(v.name()).isEmpty()) {
        lines.add(
            "  validation: "
                + v.name()
                + " takes the runs of "
                + v.inPlaceOf()
                + ", which is left out (the defaults, or the same settings as PGTune-style or a pick validated)");
      }
    }
    return lines.isEmpty()
        ? Optional.empty()
        : Optional.of(String.join(System.lineSeparator(), lines));
  }

  /** The left-out picks of the plan that no stand-in has replaced yet, in the plan's order. */
  private static List<SessionPlan.Validation> free(
      List<SessionPlan.Validation> validations, Set<String> leftOut) {
    Set<String> replaced = new HashSet<>();
    validations.stream()
        .map(SessionPlan.Validation::inPlaceOf)
        .filter(n -> n != null)
        .forEach(replaced::add);
    List<SessionPlan.Validation> out = new ArrayList<>();
    for (SessionPlan.Validation v : validations) {
      if (leftOut.contains(v.name()) && !replaced.contains(v.name())) {
        out.add(v);
      }
    }
    return out;
  }

  /** The left-out pick of {@code track} if there is one, else the first. */
  private static SessionPlan.Validation replaced(List<SessionPlan.Validation> free, Track track) {
    return free.stream().filter(v -> v.track() == track).findFirst().orElse(free.get(0));
  }

  /** Every pick of the session: the objective's, then the other's, the last track first. */
  private static List<SessionPlan.Validation> candidates(List<Track> tracks, Goal objective) {
    List<SessionPlan.Validation> out = new ArrayList<>();
    for (Goal goal : List.of(objective, objective.other())) {
      for (int i = tracks.size() - 1; i >= 0; i--) {
        Track track = tracks.get(i);
        out.add(new SessionPlan.Validation(new ResultKey(track, goal).name(), track));
      }
    }
    return out;
  }
}
