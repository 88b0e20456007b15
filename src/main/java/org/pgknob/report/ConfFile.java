package org.pgknob.report;

import java.util.LinkedHashMap;
import java.util.Map;
import org.pgknob.PgknobException;

/**
 * Reads settings from postgresql.conf text as PostgreSQL does: {@code name = value} or {@code name
 * value}, one per line; {@code #} starts a comment outside quotes; a value is a quoted string
 * ({@code ''} or {@code \'} for a quote, backslash escapes) or an unquoted word or number with its
 * unit ({@code 1GB}, {@code 0.9}, {@code on}); a later line for the same name wins. Names are
 * folded to lower case. {@code include} directives are refused: a fragment with them is not one
 * pgknob wrote.
 */
public final class ConfFile {
  private ConfFile() {}

  /**
   * The settings of {@code text}, in file order.
   *
   * @param source the file's name, for messages
   * @throws PgknobException naming the line when a line is not a setting
   */
  public static Map<String, String> parse(String source, String text) {
    return read(source, text, new LinkedHashMap<>());
  }

  /**
   * The line (1-based) of each setting's value in force, the last line that sets it: for messages
   * that point at a value in the file.
   */
  public static Map<String, Integer> lines(String source, String text) {
    Map<String, Integer> lines = new LinkedHashMap<>();
    read(source, text, lines);
    return lines;
  }

  private static Map<String, String> read(String source, String text, Map<String, Integer> lineOf) {
    Map<String, String> out = new LinkedHashMap<>();
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      Line line = new Line(source, i + 1, lines[i]);
      line.skipSpace();
      if (line.atEndOrComment()) {
        continue;
      }
      String name = line.name();
      if (name.startsWith("include")) {
        throw line.error("include directives are not supported", "inline the included settings");
      }
      line.skipSpace();
      if (line.peek() == '=') {
        line.pos++;
        line.skipSpace();
      }
      String value = line.value();
      line.skipSpace();
      if (!line.atEndOrComment()) {
        throw line.error("unexpected text after the value", "one setting per line");
      }
      out.remove(name);
      out.put(name, value);
      lineOf.put(name, i + 1);
    }
    return out;
  }

  /** A cursor over one line. */
  private static final class Line {
    final String source;
    final int number;
    final String text;
    int pos;

    Line(String source, int number, String text) {
      this.source = source;
      this.number = number;
      this.text = text;
    }

    char peek() {
      return pos < text.length() ? text.charAt(pos) : '\0';
    }

    void skipSpace() {
      while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
        pos++;
      }
    }

    boolean atEndOrComment() {
      return pos >= text.length() || text.charAt(pos) == '#';
    }

    String name() {
      int start = pos;
      while (pos < text.length()
          && (Character.isLetterOrDigit(text.charAt(pos))
              || text.charAt(pos) == '_'
              || text.charAt(pos) == '.')) {
        pos++;
      }
      if (pos == start || !Character.isLetter(text.charAt(start)) && text.charAt(start) != '_') {
        throw error("expected a setting name", "write name = value");
      }
      return text.substring(start, pos).toLowerCase(java.util.Locale.ROOT);
    }

    String value() {
      if (peek() == '\'') {
        return quoted();
      }
      int start = pos;
      while (pos < text.length()
          && !Character.isWhitespace(text.charAt(pos))
          && text.charAt(pos) != '#') {
        pos++;
      }
      if (pos == start) {
        throw error("missing value", "write name = value");
      }
      return text.substring(start, pos);
    }

    private String quoted() {
      StringBuilder b = new StringBuilder();
      pos++;
      while (pos < text.length()) {
        char c = text.charAt(pos++);
        if (c == '\'') {
          if (peek() == '\'') {
            b.append('\'');
            pos++;
          } else {
            return b.toString();
          }
        } else if (c == '\\' && pos < text.length()) {
          char e = text.charAt(pos++);
          b.append(
              switch (e) {
                case 'n' -> '\n';
                case 't' -> '\t';
                case 'r' -> '\r';
                case 'b' -> '\b';
                case 'f' -> '\f';
                default -> e;
              });
        } else {
          b.append(c);
        }
      }
      throw error("unterminated quoted value", "close the value with '");
    }

    PgknobException error(String what, String fix) {
      return new PgknobException(
          source + " line " + number + ": " + what + ": " + text.strip(), fix);
    }
  }
}
