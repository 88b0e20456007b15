package org.pgknob.server;

/**
 * Quoting for the two SQL statements that cannot take bind parameters (ALTER SYSTEM SET and RESET):
 * an identifier in double quotes and a value as an escape string literal, so no value can end the
 * literal early whatever it contains.
 */
final class SqlQuoting {
  private SqlQuoting() {}

  /** {@code "name"}, with any double quote doubled. */
  static String identifier(String name) {
    return "\"" + name.replace("\"", "\"\"") + "\"";
  }

  /**
   * {@code E'value'}, with quotes and backslashes escaped. An escape string is read the same way
   * whatever standard_conforming_strings says.
   *
   * @throws IllegalArgumentException for a NUL character, which no PostgreSQL string can hold
   */
  static String literal(String value) {
    if (value.indexOf('\0') >= 0) {
      throw new IllegalArgumentException("a setting value cannot contain a NUL character");
    }
    return "E'" + value.replace("\\", "\\\\").replace("'", "''") + "'";
  }

  static String alterSystemSet(String name, String value) {
    return "ALTER SYSTEM SET " + identifier(name) + " TO " + literal(value);
  }

  static String alterSystemReset(String name) {
    return "ALTER SYSTEM RESET " + identifier(name);
  }
}
