package org.pgknob.optimize;

import java.util.List;
import java.util.Map;
import org.pgknob.space.Configuration;

/** Bayes with anchors: the contract holds while it starts from given configurations. */
class BayesAnchoredContractTest extends OptimizerContractTest {
  static final List<Configuration> ANCHORS =
      List.of(
          Configuration.of(Map.of("shared_buffers", 1024L, "io_method", "sync", "jit", "off")),
          Configuration.of(
              Map.of(
                  "shared_buffers",
                  256L,
                  "random_page_cost",
                  1.1,
                  "io_method",
                  "worker",
                  "io_workers",
                  8L)));

  @Override
  Optimizer create(OptimizerSpec spec) {
    return Optimizers.create(
        OptimizerKind.BAYES, spec.withAnchors(ANCHORS), Map.of("surrogate", "gp"));
  }

  @Override
  boolean firstSuggestionIsSampled() {
    return false;
  }
}
