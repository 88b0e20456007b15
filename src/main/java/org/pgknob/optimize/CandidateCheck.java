package org.pgknob.optimize;

import org.pgknob.space.Configuration;

/**
 * Whether a candidate may be suggested: the space admits it, the known constraint accepts it, and
 * (unless repeats are allowed) it was not observed already.
 */
public final class CandidateCheck {
  private final OptimizerSpec spec;
  private final History history;

  public CandidateCheck(OptimizerSpec spec, History history) {
    this.spec = spec;
    this.history = history;
  }

  public boolean accepts(Configuration candidate) {
    return spec.space().admits(candidate)
        && spec.knownConstraint().test(candidate)
        && (spec.allowRepeats() || !history.contains(candidate));
  }

  /** Admitted by the space and the known constraint, observed or not. */
  public boolean feasibleByRule(Configuration candidate) {
    return spec.space().admits(candidate) && spec.knownConstraint().test(candidate);
  }
}
