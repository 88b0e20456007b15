package org.pgknob.server;

import org.pgknob.PgknobException;

/**
 * The PostgreSQL majors pgknob tunes: 15 and later. Before 15 a role that is not a superuser cannot
 * be granted ALTER SYSTEM, and the search space and safety rules are written for 15 to 18.
 */
public final class SupportedVersions {
  public static final int OLDEST_MAJOR = 15;
  public static final int NEWEST_TESTED_MAJOR = 18;

  private SupportedVersions() {}

  /** Refuses a server older than {@link #OLDEST_MAJOR}, from the connection's metadata. */
  public static void require(java.sql.DatabaseMetaData meta, String describe)
      throws java.sql.SQLException {
    require(meta.getDatabaseMajorVersion() * 10000 + meta.getDatabaseMinorVersion(), describe);
  }

  /**
   * Refuses a server older than {@link #OLDEST_MAJOR}.
   *
   * @param serverVersionNum server_version_num, e.g. 150014
   * @param describe the server, for the message
   */
  public static void require(int serverVersionNum, String describe) {
    int major = serverVersionNum / 10000;
    if (major < OLDEST_MAJOR) {
      throw new PgknobException(
          describe
              + " runs PostgreSQL "
              + major
              + ", which pgknob does not support: it supports PostgreSQL "
              + OLDEST_MAJOR
              + " to "
              + NEWEST_TESTED_MAJOR,
          "upgrade the server to PostgreSQL " + OLDEST_MAJOR + " or later");
    }
  }
}
