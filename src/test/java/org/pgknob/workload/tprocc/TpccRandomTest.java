package org.pgknob.workload.tprocc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TpccRandomTest {
  @Test
  void buildsLastNamesFromSyllablesByDigit() {
    assertEquals("BARBARBAR", TpccRandom.lastName(0));
    assertEquals("PRICALLYOUGHT", TpccRandom.lastName(371));
    assertEquals("EINGEINGEING", TpccRandom.lastName(999));
  }

  @Test
  void nuRandStaysInRangeAndFavoursSomeValues() {
    TpccRandom random = new TpccRandom(5);
    int[] counts = new int[3001];
    for (int i = 0; i < 300_000; i++) {
      int id = random.customerId();
      assertTrue(id >= 1 && id <= 3000);
      counts[id]++;
    }
    int[] sorted = Arrays.copyOfRange(counts, 1, 3001);
    Arrays.sort(sorted);
    // Uniform would give about 100 each; NURand's hottest ids get several times more.
    assertTrue(sorted[2999] > 3 * sorted[1500], "max " + sorted[2999] + ", median " + sorted[1500]);
  }

  @Test
  void runAndLoadLastNameConstantsDifferAsTpccRequires() {
    int delta = Math.abs(TpccRandom.C_LAST_RUN - TpccRandom.C_LAST_LOAD);
    assertTrue(delta >= 65 && delta <= 119 && delta != 96 && delta != 112, "delta " + delta);
  }

  @Test
  void marksAboutTenPercentOfDataOriginal() {
    TpccRandom random = new TpccRandom(9);
    int original = 0;
    for (int i = 0; i < 10_000; i++) {
      String data = random.data();
      assertTrue(data.length() >= 26 && data.length() <= 50);
      if (data.contains("ORIGINAL")) {
        original++;
      }
    }
    assertTrue(original > 850 && original < 1150, "ORIGINAL: " + original);
  }

  @Test
  void permutesEveryIdOnce() {
    int[] p = new TpccRandom(1).permutation(3000);
    int[] sorted = p.clone();
    Arrays.sort(sorted);
    for (int i = 0; i < 3000; i++) {
      assertEquals(i + 1, sorted[i]);
    }
  }
}
