package org.pgknob.server;

import java.nio.file.Path;
import org.pgknob.PgknobException;

/**
 * For tests outside this package: the exception a restore throws when it put the settings back but
 * its restore file, on a full disk, could not record it.
 */
public final class RestoreNotRecordedFixture {
  private RestoreNotRecordedFixture() {}

  public static RestoreNotRecordedException onAFullDisk(String server, Path restoreFile) {
    return new RestoreNotRecordedException(
        server,
        restoreFile,
        new PgknobException(
            "cannot write " + restoreFile + ": No space left on device",
            "free space on the disk that holds " + restoreFile.getParent()));
  }
}
