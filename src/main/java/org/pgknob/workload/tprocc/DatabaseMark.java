package org.pgknob.workload.tprocc;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The comment pgknob puts on every database it creates for TPROC-C, which is how it knows a
 * database is its own to reset or drop: {@code pgknob tprocc v1 warehouses=4} (the live database),
 * {@code pgknob tprocc v1 warehouses=4 pristine} (the copy resets start from), {@code pgknob tprocc
 * v1 building} (a build that has not finished).
 *
 * @param version the schema version that built it; pgknob refuses to run on another version
 * @param warehouses warehouses loaded (0 while building)
 * @param role what the database is for
 */
public record DatabaseMark(int version, int warehouses, Role role) {
  /** Bumped whenever the tables, keys or functions change shape. */
  public static final int CURRENT_VERSION = 1;

  static final String PREFIX = "pgknob tprocc ";
  private static final Pattern FORMAT =
      Pattern.compile("pgknob tprocc v(\\d+)(?: warehouses=(\\d+))?(?: (pristine|building))?");

  /** What a marked database is for. */
  public enum Role {
    LIVE,
    PRISTINE,
    BUILDING
  }

  public static DatabaseMark live(int warehouses) {
    return new DatabaseMark(CURRENT_VERSION, warehouses, Role.LIVE);
  }

  public static DatabaseMark pristine(int warehouses) {
    return new DatabaseMark(CURRENT_VERSION, warehouses, Role.PRISTINE);
  }

  public static DatabaseMark building() {
    return new DatabaseMark(CURRENT_VERSION, 0, Role.BUILDING);
  }

  /** True when a comment says pgknob created the database, whatever its version. */
  public static boolean isPgknobComment(String comment) {
    return comment != null && comment.startsWith(PREFIX);
  }

  /**
   * The mark in a database comment; empty when the comment is not pgknob's. A pgknob comment in a
   * format this version cannot read parses as version 0 (another version).
   */
  public static Optional<DatabaseMark> parse(String comment) {
    if (!isPgknobComment(comment)) {
      return Optional.empty();
    }
    Matcher m = FORMAT.matcher(comment.trim());
    if (!m.matches()) {
      return Optional.of(new DatabaseMark(0, 0, Role.BUILDING));
    }
    int version = Integer.parseInt(m.group(1));
    int warehouses = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
    Role role =
        m.group(3) == null
            ? Role.LIVE
            : m.group(3).equals("pristine") ? Role.PRISTINE : Role.BUILDING;
    return Optional.of(new DatabaseMark(version, warehouses, role));
  }

  public boolean isCurrentVersion() {
    return version == CURRENT_VERSION;
  }

  /** The comment text. */
  public String comment() {
    return switch (role) {
      case LIVE -> "pgknob tprocc v" + version + " warehouses=" + warehouses;
      case PRISTINE -> "pgknob tprocc v" + version + " warehouses=" + warehouses + " pristine";
      case BUILDING -> "pgknob tprocc v" + version + " building";
    };
  }
}
