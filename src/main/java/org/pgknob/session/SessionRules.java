package org.pgknob.session;

import java.nio.file.Files;
import java.nio.file.Path;
import org.pgknob.PgknobException;
import org.pgknob.safety.SafetyRules;
import org.pgknob.safety.SafetyRulesFile;

/** The safety rules a session runs under: its --rules file, else the bundled rules. */
public final class SessionRules {
  private SessionRules() {}

  /**
   * The rules of a session with these inputs.
   *
   * @throws PgknobException when its --rules file does not load
   */
  public static SafetyRules of(SessionInputs inputs) {
    return load(inputs.rulesFile());
  }

  /**
   * The rules a finished session ran under, read back for its exports: the bundled rules also when
   * its file is gone or no longer loads, since an export must not fail for it (the bundled rules
   * name the same durability values).
   */
  static SafetyRules forExport(SessionState state) {
    Object file = state.inputs().get("rulesFile");
    if (file instanceof String f && !f.isBlank() && Files.isReadable(Path.of(f))) {
      try {
        return load(f);
      } catch (PgknobException e) {
        return SafetyRulesFile.loadDefault();
      }
    }
    return SafetyRulesFile.loadDefault();
  }

  private static SafetyRules load(String file) {
    return file == null || file.isBlank()
        ? SafetyRulesFile.loadDefault()
        : SafetyRulesFile.load(Path.of(file));
  }
}
