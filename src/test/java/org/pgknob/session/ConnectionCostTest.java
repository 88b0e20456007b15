package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pgknob.safety.ConnectionOverhead;
import org.pgknob.testing.SharedPostgres;

class ConnectionCostTest {
  /**
   * A session and {@code pgknob compare} both take the per-connection memory from here; compare
   * used the rules' 10 MB fallback and refused the 60-minute session's own restart pick (21.7 GB
   * predicted against the session's 21.2), so on a server of this host it must be a measurement.
   */
  @Test
  void onAServerOfThisHostTheCostIsMeasuredNotTheRulesFallback() {
    long sentinel = 987_654_321L;
    long bytes = ConnectionCost.of(SharedPostgres.cluster(), sentinel);
    assertNotEquals(sentinel, bytes, "the fallback was kept");
    assertTrue(bytes > 0 && bytes < ConnectionOverhead.FALLBACK_BYTES, "measured " + bytes);
  }
}
