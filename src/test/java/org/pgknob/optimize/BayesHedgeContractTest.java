package org.pgknob.optimize;

import java.util.Map;
import org.pgknob.space.SearchSpace;

/**
 * The Gaussian process hedged with the product kernel alone ({@code portfolio=hedge}), on numeric
 * knobs alone: the hedge does not apply where a knob is categorical.
 */
class BayesHedgeContractTest extends OptimizerContractTest {
  @Override
  Optimizer create(OptimizerSpec spec) {
    return Optimizers.create(OptimizerKind.BAYES, spec, Map.of("portfolio", "hedge"));
  }

  @Override
  SearchSpace contractSpace() {
    return TestSpaces.numeric();
  }
}
