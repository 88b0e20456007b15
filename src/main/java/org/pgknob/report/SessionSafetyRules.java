package org.pgknob.report;

import java.nio.file.Path;
import org.pgknob.safety.SafetyRules;
import org.pgknob.safety.SafetyRulesFile;

/** The safety rules a session ran under, for the limit lines of its charts. */
final class SessionSafetyRules {
  private SessionSafetyRules() {}

  /** The session's own rules file when it named one and it still reads, else the built-in rules. */
  static SafetyRules of(SessionData data) {
    String file = data.session().path("inputs").path("rulesFile").asText("");
    try {
      return file.isEmpty() ? SafetyRulesFile.loadDefault() : SafetyRulesFile.load(Path.of(file));
    } catch (RuntimeException e) {
      return SafetyRulesFile.loadDefault();
    }
  }
}
