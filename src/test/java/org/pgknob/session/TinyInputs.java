package org.pgknob.session;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Session inputs for tests against a real server: 1 warehouse, 4 users, 1-s ramp-up, 2-s windows,
 * TPS. Built through {@link SessionInputs#fromMap} (as session.json is read), so inputs that later
 * gain options keep their defaults here.
 */
public final class TinyInputs {
  private TinyInputs() {}

  public static SessionInputs of(String budget, List<String> tracks) {
    return SessionInputs.fromMap(map(budget, tracks));
  }

  /** {@link #of}, measured by a --workload-cmd {@code command} instead of TPROC-C. */
  public static SessionInputs withCommand(String budget, List<String> tracks, String command) {
    Map<String, Object> m = map(budget, tracks);
    m.put("workload", Map.of("name", "command", "command", command));
    return SessionInputs.fromMap(m);
  }

  /** The same inputs as session.json's map, for a test that changes a few of them. */
  public static Map<String, Object> map(String budget, List<String> tracks) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("warehouses", 1);
    m.put("virtualUsers", 4);
    m.put("rampupSeconds", 1);
    m.put("windowSeconds", 2);
    m.put("allWarehouses", false);
    m.put("budget", budget);
    m.put("tracks", tracks);
    m.put("objective", "tps");
    m.put("spaceFile", "");
    m.put("rulesFile", "");
    m.put("allowDurabilityTradeoff", false);
    m.put("ramBytes", 0L);
    m.put("seed", 1L);
    m.put("surrogate", "gp");
    m.put("applyBest", false);
    return m;
  }
}
