package org.pgknob.space;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.pgknob.PgknobException;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads the YAML files users give pgknob (search spaces, safety rules) and turns what is wrong with
 * them into one-line messages.
 */
public final class YamlErrors {
  // A key given twice is refused: the last one would silently replace the first (a second
  // 'relations:' dropping the first's rules), which the user cannot see in the result.
  private static final ObjectMapper YAML =
      new ObjectMapper(
          YAMLFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build());

  private YamlErrors() {}

  /**
   * The tree of {@code yaml}, read strictly: a syntax error or a key given twice in one mapping is
   * a one-line error naming {@code source}, the line and the key.
   */
  public static JsonNode read(String source, String yaml) {
    try {
      return YAML.readTree(yaml);
    } catch (JsonProcessingException e) {
      throw syntax(source, e);
    }
  }

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
    if (what.startsWith("Duplicate field '")) {
      String key = what.substring("Duplicate field '".length(), what.lastIndexOf('\''));
      // Jackson points just past the second key, a column that reads as off by one or two.
      String line = at == null ? "" : " at line " + at.getLineNr();
      return new PgknobException(
          source + ": key '" + key + "' appears twice in the same mapping" + line,
          "keep one '" + key + "' and merge what the other held into it",
          e);
    }
    return new PgknobException(
        source + ": not valid YAML" + where + ": " + what, "fix the syntax there", e);
  }
}
