package org.pgknob.optimize;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.optimize.acquisition.AcquisitionMaximizer;
import org.pgknob.optimize.acquisition.TrustRegion;
import org.pgknob.optimize.model.GpFitter;

/**
 * The contract with the acquisition searched in a trust region ({@code region=turbo}), here used in
 * every dimension and halved after 2 failures in a row, so that the contract's short run searches
 * small boxes too.
 */
class BayesTrustRegionContractTest extends OptimizerContractTest {
  @Override
  Optimizer create(OptimizerSpec spec) {
    return new Bayes(
        spec,
        new GpFitter(),
        AcquisitionMaximizer.Settings.defaults().withRegion(new TrustRegion.Policy(0, 2)),
        Bayes.INITIAL_CAP);
  }

  @Test
  void theRegionOptionConfinesTheSearchFromTwelveDimensionsWithTurbosPatience() {
    TrustRegion.Policy turbo = Optimizers.region("turbo");
    assertTrue(turbo.appliesTo(12) && !turbo.appliesTo(11));
    assertEquals(20, turbo.failuresToShrink(20));
    assertEquals(4, turbo.failuresToShrink(2));
    assertEquals(3, Optimizers.region("turbo:3").failuresToShrink(20));
    assertTrue(!Optimizers.region("none").appliesTo(1000));
  }

  @Test
  void anUnknownRegionIsRefusedNamingTheChoices() {
    PgknobException e = assertThrows(PgknobException.class, () -> Optimizers.region("turbo:0"));
    assertTrue(e.getMessage().contains("'turbo:0'"), e.getMessage());
    assertTrue(e.fix().contains("region=turbo"), e.fix());
  }
}
