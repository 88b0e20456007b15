package org.pgknob.session;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * The picks a finished session's validation left out (the defaults, or a twin of a pick validated),
 * read back from its trials: planned for validation, never run in it. Replaying the plan over the
 * logged trials needs them, as the session decided them when its search ended.
 */
final class ValidationLeftOut {
  private ValidationLeftOut() {}

  static Set<String> of(SessionPlan plan, List<TrialResult> trials) {
    Set<String> leftOut = new TreeSet<>();
    plan.steps().stream()
        .filter(s -> s.phase() == Phase.VALIDATION)
        .map(Step::subject)
        .forEach(leftOut::add);
    leftOut.remove(SessionPlan.BASELINE);
    trials.stream()
        .filter(t -> t.phase() == Phase.VALIDATION)
        .map(t -> t.label().substring(t.label().lastIndexOf(' ') + 1))
        .forEach(leftOut::remove);
    return leftOut;
  }
}
