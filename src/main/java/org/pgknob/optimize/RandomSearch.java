package org.pgknob.optimize;

import java.util.Random;
import org.pgknob.optimize.sampling.ScrambledSobol;
import org.pgknob.space.Configuration;
import org.pgknob.space.UnitCubeEncoder;

/**
 * The reference every other optimizer is measured against: points of a scrambled Sobol sequence in
 * the unit cube, decoded to configurations (log knobs uniform in the logarithm, categories uniform
 * through their one-hot dimensions), skipping those the checks refuse. Observations are only
 * remembered, to avoid repeats.
 */
public final class RandomSearch implements Optimizer {
  /** Draws before giving up on finding an admissible new configuration. */
  static final int MAX_DRAWS = 10_000;

  private final OptimizerSpec spec;
  private final UnitCubeEncoder encoder;
  private final History history;
  private final CandidateCheck check;
  private final ScrambledSobol sobol;

  public RandomSearch(OptimizerSpec spec) {
    this.spec = spec;
    this.encoder = new UnitCubeEncoder(spec.space());
    this.history = new History(spec.space());
    this.check = new CandidateCheck(spec, history);
    this.sobol = new ScrambledSobol(encoder.dimensions(), new Random(spec.seed()));
  }

  @Override
  public Configuration suggest() {
    for (int draw = 0; draw < MAX_DRAWS; draw++) {
      Configuration c = encoder.decode(sobol.next());
      if (check.accepts(c)) {
        return c;
      }
    }
    throw new NoCandidateLeftException(name(), MAX_DRAWS);
  }

  @Override
  public void observe(Configuration configuration, Outcome outcome) {
    history.add(configuration, outcome);
  }

  @Override
  public String name() {
    return "random";
  }

  /** The best mean observed value so far. */
  public java.util.Optional<Incumbent> incumbent() {
    return history.bestObserved(spec.objective());
  }

  public History history() {
    return history;
  }
}
