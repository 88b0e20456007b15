package org.pgknob;

import java.util.regex.Pattern;

/**
 * Text a POSIX shell reads back as one word, for the command lines pgknob prints for a user to
 * paste (the next step of a verdict, the options a resume took) and the one it runs itself (the
 * managed cluster's start under another user). One rule, so that what one command prints another
 * reads the same way.
 */
public final class ShellWords {
  /** Characters a shell takes literally outside quotes. */
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./:=,+@%-]+");

  private ShellWords() {}

  /** {@code text} in single quotes, each quote inside it closed, escaped and reopened. */
  public static String quoted(String text) {
    return "'" + text.replace("'", "'\\''") + "'";
  }

  /** {@code text} as it is when a shell would read it unchanged, otherwise {@link #quoted}. */
  public static String word(String text) {
    return PLAIN.matcher(text).matches() ? text : quoted(text);
  }
}
