package org.pgknob.workload.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.pgknob.Json;
import org.pgknob.workload.LatencySummary;

class LatenciesTest {
  /** 1 ms to 10 s in steps of 1 ms: the p-th percentile is about p% of 10 s. */
  private static Histogram uniform() {
    Histogram h = Latencies.histogram();
    for (long ms = 1; ms <= 10_000; ms++) {
      h.recordValue(ms * 1000);
    }
    return h;
  }

  @Test
  void percentileTableRunsFromTheFastestToTheSlowestCallAndRisesWithThePercentile() {
    LatencySummary s = Latencies.summaryWithPercentiles(uniform());
    List<LatencySummary.Percentile> table = s.percentiles();
    assertEquals(0.0, table.get(0).percentile());
    assertEquals(1.0, table.get(0).ms(), 0.01);
    assertEquals(100.0, table.get(table.size() - 1).percentile());
    assertEquals(s.maxMs(), table.get(table.size() - 1).ms(), 0.01 * s.maxMs());
    assertEquals(9_000, ms(table, 90), 9);
    assertEquals(9_900, ms(table, 99), 10);
    for (int i = 1; i < table.size(); i++) {
      assertTrue(table.get(i).ms() >= table.get(i - 1).ms(), table.toString());
    }
  }

  @Test
  void levelsFinerThanTheCallsCanResolveAreLeftOut() {
    // 10,000 calls resolve 99.99% (one in 10,000) but not 99.999%.
    List<Double> levels =
        Latencies.summaryWithPercentiles(uniform()).percentiles().stream()
            .map(LatencySummary.Percentile::percentile)
            .toList();
    assertTrue(levels.contains(99.99), levels.toString());
    assertTrue(!levels.contains(99.999), levels.toString());
  }

  @Test
  void aTrialWrittenBeforeTheTableReadsBackWithAnEmptyOneAndPerTypeFiguresStayCompact()
      throws Exception {
    LatencySummary old =
        Json.mapper()
            .readValue(
                "{\"count\":3,\"avgMs\":2.0,\"p50Ms\":2.0,\"p95Ms\":3.0,\"p99Ms\":3.0,\"maxMs\":3.0}",
                LatencySummary.class);
    assertTrue(old.percentiles().isEmpty());
    String perType = Json.mapper().writeValueAsString(Latencies.summary(uniform()));
    assertTrue(!perType.contains("percentiles"), perType);
  }

  private static double ms(List<LatencySummary.Percentile> table, double p) {
    return table.stream().filter(x -> x.percentile() == p).findFirst().orElseThrow().ms();
  }
}
