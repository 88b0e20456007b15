package org.pgknob.workload.pgbench;

import java.util.ArrayList;
import java.util.List;

/**
 * A script's SQL text with {@code %d} where its literal values go, split once into the fixed text
 * around them. {@link #fill} gives the same text as {@link String#formatted}, which a profile of
 * the client threads (JFR) put at half of their Java samples and most of their allocation per
 * select-only transaction: every call parses the format and looks up the locale's digits. Here a
 * call is a few appends of the fixed parts and the numbers' digits, in ASCII whatever the locale.
 */
final class SqlTemplate {
  private static final String PLACEHOLDER = "%d";

  /** The fixed text before each value, then the text after the last one. */
  private final String[] parts;

  private final int fixedLength;

  private SqlTemplate(String[] parts) {
    this.parts = parts;
    int length = 0;
    for (String p : parts) {
      length += p.length();
    }
    this.fixedLength = length;
  }

  /**
   * @param sql text whose only format specifiers are {@code %d}
   * @throws IllegalArgumentException for any other use of {@code %}
   */
  static SqlTemplate of(String sql) {
    List<String> parts = new ArrayList<>();
    int from = 0;
    for (int at = sql.indexOf('%'); at >= 0; at = sql.indexOf('%', from)) {
      if (!sql.startsWith(PLACEHOLDER, at)) {
        throw new IllegalArgumentException(
            "only %d may follow a % in a script's SQL, but got: " + sql);
      }
      parts.add(sql.substring(from, at));
      from = at + PLACEHOLDER.length();
    }
    parts.add(sql.substring(from));
    return new SqlTemplate(parts.toArray(String[]::new));
  }

  /** How many values {@link #fill} takes. */
  int values() {
    return parts.length - 1;
  }

  /**
   * The text with {@code values} in place of the {@code %d}s, in order.
   *
   * @throws IllegalArgumentException when the count differs from {@link #values()}
   */
  String fill(int... values) {
    if (values.length != values()) {
      throw new IllegalArgumentException(
          "the SQL takes " + values() + " values, but got " + values.length);
    }
    // Eleven characters hold any int with its sign: one allocation of the right size.
    StringBuilder sql = new StringBuilder(fixedLength + 11 * values.length);
    for (int i = 0; i < values.length; i++) {
      sql.append(parts[i]).append(values[i]);
    }
    return sql.append(parts[values.length]).toString();
  }
}
