package org.pgknob.cli;

import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Optional;
import org.pgknob.PgknobException;

/**
 * A file or folder the user named that cannot be read or written (a missing folder, a file where a
 * folder is expected, no permission): these reach the CLI as {@link FileSystemException}s from
 * wherever the path was used, and are the user's to fix, so they become one {@link PgknobException}
 * line naming the path instead of an internal error.
 */
final class FileErrors {
  private FileErrors() {}

  /** The user error {@code e} stands for, or empty when it is not about a path. */
  static Optional<PgknobException> explain(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof FileSystemException fse) {
        return Optional.of(explain(fse));
      }
    }
    return Optional.empty();
  }

  private static PgknobException explain(FileSystemException e) {
    String path = e.getFile();
    String cause;
    if (e instanceof NoSuchFileException) {
      cause = path + ": no such file or folder";
    } else if (e instanceof FileAlreadyExistsException) {
      cause = path + " already exists (and is not a folder pgknob can use)";
    } else if (e instanceof AccessDeniedException) {
      cause = path + ": permission denied";
    } else if (e instanceof NotDirectoryException) {
      cause = path + " is not a folder";
    } else if (e instanceof DirectoryNotEmptyException) {
      cause = path + " is a folder that is not empty";
    } else {
      cause = path + ": " + (e.getReason() == null ? e.getClass().getSimpleName() : e.getReason());
    }
    if (e.getOtherFile() != null) {
      cause += " (with " + e.getOtherFile() + ")";
    }
    return new PgknobException(cause, "check the path and give a file or folder pgknob can use", e);
  }
}
