package org.pgknob.session;

import java.nio.file.Files;
import java.nio.file.Path;
import org.pgknob.PgknobException;
import org.pgknob.safety.SafetyRules;
import org.pgknob.safety.SafetyRulesFile;

/** The safety rules a session ran under, read back from its folder for its exports. */
final class SessionRules {
  private SessionRules() {}

  /**
   * The session's --rules file, else the bundled rules: also when that file is gone or no longer
   * loads, since an export must not fail for it (the bundled rules name the same durability
   * values).
   */
  static SafetyRules of(SessionState state) {
    Object file = state.inputs().get("rulesFile");
    if (file instanceof String f && !f.isBlank() && Files.isReadable(Path.of(f))) {
      try {
        return SafetyRulesFile.load(Path.of(f));
      } catch (PgknobException e) {
        return SafetyRulesFile.loadDefault();
      }
    }
    return SafetyRulesFile.loadDefault();
  }
}
