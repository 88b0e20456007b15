package org.pgknob.server;

import java.nio.file.Path;
import org.pgknob.PgknobException;

/**
 * The original settings are back on the server, but the restore file could not record it (its disk
 * is full, say). The server needs nothing more; the file still says "applied", so the next session
 * on this server takes its originals over and {@code pgknob restore}, run once the file can be
 * written, records the restore (repeating it harmlessly). Callers say the settings are back, not
 * that restoring failed.
 */
public final class RestoreNotRecordedException extends PgknobException {
  private final String server;

  RestoreNotRecordedException(String server, Path restoreFile, PgknobException writeFailure) {
    super(
        "the original settings of "
            + server
            + " are back, but the restore file could not record it: "
            + writeFailure.getMessage(),
        "free space on the disk that holds "
            + restoreFile.toAbsolutePath().getParent()
            + ", then run: pgknob restore "
            + restoreFile
            + "; the server needs nothing more, the file must record it",
        writeFailure);
    this.server = server;
  }

  /** The server whose settings are back, as {@link Target#describe()} names it. */
  public String server() {
    return server;
  }
}
