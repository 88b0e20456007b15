package org.pgknob.session;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code --duration auto}: the session measures its baselines with windows of {@code
 * baselineSeconds}, then chooses the window of every later trial from their noise ({@link
 * WindowDecision}) and remakes its plan for it. Kept in session.json's inputs, so a resumed
 * session, the report and {@code compare} use the window chosen.
 *
 * @param baselineSeconds the baselines' window
 * @param chosenSeconds the window chosen, 0 until the baselines ran
 * @param reason the console's line on the choice, empty until chosen
 */
public record AutoWindow(int baselineSeconds, int chosenSeconds, String reason) {
  public AutoWindow {
    reason = reason == null ? "" : reason;
  }

  /** Before the choice: the baselines run with {@code baselineSeconds}. */
  public static AutoWindow startingWith(int baselineSeconds) {
    return new AutoWindow(baselineSeconds, 0, "");
  }

  public boolean chosen() {
    return chosenSeconds > 0;
  }

  /** The window trials use now: the baselines' until the choice, then the chosen one. */
  int windowSeconds() {
    return chosen() ? chosenSeconds : baselineSeconds;
  }

  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("baselineSeconds", baselineSeconds);
    m.put("chosenSeconds", chosenSeconds);
    m.put("reason", reason);
    return m;
  }

  /** From session.json's "autoWindow", or null when the session had a fixed window. */
  static AutoWindow fromMap(Object value) {
    if (!(value instanceof Map<?, ?> m)) {
      return null;
    }
    return new AutoWindow(
        ((Number) m.get("baselineSeconds")).intValue(),
        m.get("chosenSeconds") instanceof Number n ? n.intValue() : 0,
        m.get("reason") instanceof String s ? s : "");
  }
}
