package org.pgknob.workload;

/**
 * The comment pgknob puts on every database it creates for a workload, which is how it knows a
 * database is its own to build into, reset or drop: {@code pgknob tprocc v1 warehouses=4} (the live
 * database), {@code pgknob pgbench v2 scale=10 pristine} (the copy resets start from), {@code
 * pgknob tprocc v1 building} (a build that has not finished). See {@link MarkFormat}.
 *
 * @param format the workload's kind of mark
 * @param version the schema version that built it (0: a pgknob comment this version cannot read)
 * @param size the workload's size (warehouses, scale); 0 while building
 * @param role what the database is for
 */
public record DatabaseMark(MarkFormat format, int version, int size, Role role) {
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

  /** The comment text. */
  public String comment() {
    String head = format.prefix() + "v" + version;
    return switch (role) {
      case LIVE -> head + " " + format.sizeName() + "=" + size;
      case PRISTINE -> head + " " + format.sizeName() + "=" + size + " pristine";
      case BUILDING -> head + " building";
    };
  }
}
