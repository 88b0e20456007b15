package org.pgknob.workload.pgbench;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The comment pgknob puts on every pgbench database it creates, which is how it knows a database is
 * its own to reset or drop: {@code pgknob pgbench v1 scale=10} (the live database), {@code ...
 * pristine} (the copy resets start from), {@code pgknob pgbench v1 building} (an unfinished build).
 *
 * @param version the schema version that built it
 * @param scale pgbench's scale factor (0 while building)
 * @param role what the database is for
 */
record PgbenchMark(int version, int scale, Role role) {
  static final int CURRENT_VERSION = 1;
  static final String PREFIX = "pgknob pgbench ";
  private static final Pattern FORMAT =
      Pattern.compile("pgknob pgbench v(\\d+)(?: scale=(\\d+))?(?: (pristine|building))?");

  enum Role {
    LIVE,
    PRISTINE,
    BUILDING
  }

  static PgbenchMark live(int scale) {
    return new PgbenchMark(CURRENT_VERSION, scale, Role.LIVE);
  }

  static PgbenchMark pristine(int scale) {
    return new PgbenchMark(CURRENT_VERSION, scale, Role.PRISTINE);
  }

  static PgbenchMark building() {
    return new PgbenchMark(CURRENT_VERSION, 0, Role.BUILDING);
  }

  /** The mark in a comment; empty when the comment is not pgknob's pgbench mark. */
  static Optional<PgbenchMark> parse(String comment) {
    if (comment == null || !comment.startsWith(PREFIX)) {
      return Optional.empty();
    }
    Matcher m = FORMAT.matcher(comment.trim());
    if (!m.matches()) {
      return Optional.of(new PgbenchMark(0, 0, Role.BUILDING));
    }
    int scale = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
    Role role =
        m.group(3) == null
            ? Role.LIVE
            : m.group(3).equals("pristine") ? Role.PRISTINE : Role.BUILDING;
    return Optional.of(new PgbenchMark(Integer.parseInt(m.group(1)), scale, role));
  }

  boolean isFinished(Role wanted) {
    return version == CURRENT_VERSION && role == wanted;
  }

  String comment() {
    return switch (role) {
      case LIVE -> PREFIX + "v" + version + " scale=" + scale;
      case PRISTINE -> PREFIX + "v" + version + " scale=" + scale + " pristine";
      case BUILDING -> PREFIX + "v" + version + " building";
    };
  }
}
