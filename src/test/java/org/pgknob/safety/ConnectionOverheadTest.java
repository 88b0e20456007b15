package org.pgknob.safety;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.pgknob.server.ManagedCluster;
import org.pgknob.server.ProcessSampler;
import org.pgknob.space.PgUnit;
import org.pgknob.testing.SharedPostgres;

class ConnectionOverheadTest {
  @Test
  void measuresAConnectionsMemoryFromTheGrowthOfPss() {
    ManagedCluster cluster = SharedPostgres.cluster();
    try (ProcessSampler sampler =
        new ProcessSampler(cluster.postmasterPid().orElseThrow(), Duration.ofSeconds(1))) {
      long perConnection = ConnectionOverhead.measure(cluster, "postgres", sampler, 4);
      System.out.printf("one idle connection: %s%n", PgUnit.readableBytes(perConnection));
      // An idle backend that has read the catalogs holds a few hundred kB to a few MB of its own.
      assertTrue(perConnection > 100 * 1024, PgUnit.readableBytes(perConnection));
      assertTrue(
          perConnection < ConnectionOverhead.FALLBACK_BYTES, PgUnit.readableBytes(perConnection));
    }
  }
}
