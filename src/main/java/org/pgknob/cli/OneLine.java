package org.pgknob.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes any message fit the one line pgknob prints on standard error: line breaks (a value may hold
 * one) become visible {@code \n}, and a quoted value or an unbroken run of characters longer than
 * {@link #MAX_VALUE} is cut, so a 10,000-character value cannot bury the message that names it.
 */
final class OneLine {
  /** Longest value shown whole; longer ones keep their start and say how long they were. */
  static final int MAX_VALUE = 100;

  private static final int KEPT = 60;
  // A quote that opens or closes a value has no letter or digit outside it: the apostrophes of
  // "the server's WAL ... the session's" are not a quoted value.
  private static final Pattern QUOTED =
      Pattern.compile("(?<![\\p{L}\\p{N}])'([^']{" + (MAX_VALUE + 1) + ",})'(?![\\p{L}\\p{N}])");
  private static final Pattern LONG_RUN = Pattern.compile("\\S{" + (MAX_VALUE + 1) + ",}");

  private OneLine() {}

  static String of(String message) {
    String flat =
        String.valueOf(message).replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\r");
    String quotedCut = replaceAll(QUOTED, flat, m -> "'" + shorten(m.group(1)) + "'");
    return replaceAll(LONG_RUN, quotedCut, m -> shorten(m.group()));
  }

  /** {@code value} whole when short, else its start and its length. */
  static String shorten(String value) {
    if (value.length() <= MAX_VALUE) {
      return value;
    }
    return value.substring(0, KEPT) + "...(" + value.length() + " characters)";
  }

  private static String replaceAll(
      Pattern p, String text, java.util.function.Function<Matcher, String> with) {
    Matcher m = p.matcher(text);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(sb, Matcher.quoteReplacement(with.apply(m)));
    }
    m.appendTail(sb);
    return sb.toString();
  }
}
