package org.pgknob.workload;

/**
 * The comment pgknob puts on every database it creates for a workload, which is how it knows a
 * database is its own to build into, reset or drop: {@code pgknob tprocc v1 warehouses=4} (the live
 * database), {@code pgknob pgbench v2 scale=10 pristine} (the copy resets start from), {@code
 * pgknob tprocc v1 building} (a build that has not finished), {@code pgknob tprocc v1 warehouses=4
 * pristine resetting} (a pristine copy while the live database is copied from it). See {@link
 * MarkFormat}.
 *
 * @param format the workload's kind of mark
 * @param version the schema version that built it (0: a pgknob comment this version cannot read)
 * @param size the workload's size (warehouses, scale); 0 while building
 * @param role what the database is for
 * @param resetting on a pristine copy: a reset from it began and has not marked its copy yet, so a
 *     copy of the live database's name without a comment is that reset's (cut short between CREATE
 *     DATABASE and COMMENT ON DATABASE by kill -9 or the JVM's exit)
 */
public record DatabaseMark(MarkFormat format, int version, int size, Role role, boolean resetting) {
  public DatabaseMark(MarkFormat format, int version, int size, Role role) {
    this(format, version, size, role, false);
  }

  /** What a marked database is for. */
  public enum Role {
    LIVE,
    PRISTINE,
    BUILDING
  }

  public boolean isCurrentVersion() {
    return version == format.currentVersion();
  }

  /** A finished database of this version in {@code wanted}'s role. */
  public boolean isFinished(Role wanted) {
    return isCurrentVersion() && role == wanted;
  }

  /** This pristine copy's mark while a reset copies it, or once the reset marked its copy. */
  public DatabaseMark withResetting(boolean now) {
    return new DatabaseMark(format, version, size, role, now);
  }

  /** The comment text. */
  public String comment() {
    String head = format.prefix() + "v" + version;
    return switch (role) {
      case LIVE -> head + " " + format.sizeName() + "=" + size;
      case PRISTINE ->
          head
              + " "
              + format.sizeName()
              + "="
              + size
              + " pristine"
              + (resetting ? " resetting" : "");
      case BUILDING -> head + " building";
    };
  }
}
