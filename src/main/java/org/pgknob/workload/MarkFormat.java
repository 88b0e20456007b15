package org.pgknob.workload;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One workload's database marks: {@code pgknob <kind> v<version> <sizeName>=<size>}, then {@code
 * pristine} for the copy resets start from ({@code pristine resetting} while a reset copies it), or
 * {@code pgknob <kind> v<version> building}.
 *
 * @param kind the workload's word in the comment: tprocc, pgbench
 * @param sizeName what its size is called: warehouses, scale
 * @param currentVersion bumped whenever the workload's tables, keys or functions change shape
 */
public record MarkFormat(String kind, String sizeName, int currentVersion) {
  public String prefix() {
    return "pgknob " + kind + " ";
  }

  public DatabaseMark live(int size) {
    return new DatabaseMark(this, currentVersion, size, DatabaseMark.Role.LIVE);
  }

  public DatabaseMark pristine(int size) {
    return new DatabaseMark(this, currentVersion, size, DatabaseMark.Role.PRISTINE);
  }

  public DatabaseMark building() {
    return new DatabaseMark(this, currentVersion, 0, DatabaseMark.Role.BUILDING);
  }

  /** True when a comment says pgknob created the database for this workload, whatever version. */
  public boolean isOurs(String comment) {
    return comment != null && comment.startsWith(prefix());
  }

  /**
   * The mark in a database comment; empty when the comment is not this workload's. A mark in a
   * format this version cannot read parses as version 0 (another version).
   */
  public Optional<DatabaseMark> parse(String comment) {
    if (!isOurs(comment)) {
      return Optional.empty();
    }
    Matcher m =
        Pattern.compile(
                Pattern.quote(prefix())
                    + "v(\\d+)(?: "
                    + Pattern.quote(sizeName)
                    + "=(\\d+))?(?: (pristine|building))?( resetting)?")
            .matcher(comment.trim());
    if (!m.matches()) {
      return Optional.of(new DatabaseMark(this, 0, 0, DatabaseMark.Role.BUILDING));
    }
    int size = m.group(2) == null ? 0 : Integer.parseInt(m.group(2));
    DatabaseMark.Role role =
        m.group(3) == null
            ? DatabaseMark.Role.LIVE
            : m.group(3).equals("pristine")
                ? DatabaseMark.Role.PRISTINE
                : DatabaseMark.Role.BUILDING;
    boolean resetting = m.group(4) != null;
    if (resetting && role != DatabaseMark.Role.PRISTINE) {
      return Optional.of(new DatabaseMark(this, 0, 0, DatabaseMark.Role.BUILDING));
    }
    return Optional.of(new DatabaseMark(this, Integer.parseInt(m.group(1)), size, role, resetting));
  }
}
