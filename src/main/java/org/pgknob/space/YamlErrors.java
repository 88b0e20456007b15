package org.pgknob.space;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import org.pgknob.PgknobException;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/** One-line messages for YAML files pgknob reads (search spaces, safety rules). */
public final class YamlErrors {
  private YamlErrors() {}

  /**
   * A syntax error in {@code source} as one line: where (line and column, 1-based) and what the
   * parser expected. SnakeYAML's own message spans several lines with a drawing of the spot.
   */
  public static PgknobException syntax(String source, JsonProcessingException e) {
    JsonLocation at = e.getLocation();
    String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
    String what = e.getOriginalMessage();
    if (e.getCause() instanceof MarkedYAMLException y) {
      what = y.getProblem() + (y.getContext() == null ? "" : " (" + y.getContext() + ")");
    }
    what = what == null ? "" : what.lines().findFirst().orElse("").trim();
    return new PgknobException(
        source + ": not valid YAML" + where + ": " + what, "fix the syntax there", e);
  }
}
