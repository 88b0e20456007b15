package org.pgknob;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Writes a file so that a crash at any moment leaves either the old or the new content, never a
 * mix: a temporary file beside it, written and fsynced, renamed over the target, and the folder
 * fsynced so the rename itself survives a power cut.
 */
public final class AtomicFiles {
  private AtomicFiles() {}

  public static void write(Path file, byte[] content) {
    write(file, content, false);
  }

  /**
   * Writes {@code content} to {@code file} atomically and durably.
   *
   * @param ownerOnly make the file readable by its owner only (mode 600), before it appears
   */
  public static void write(Path file, byte[] content, boolean ownerOnly) {
    Path dir = file.toAbsolutePath().getParent();
    Path tmp = dir.resolve("." + file.getFileName() + ".tmp");
    try {
      Files.createDirectories(dir);
      try (FileChannel ch =
          FileChannel.open(
              tmp,
              StandardOpenOption.CREATE,
              StandardOpenOption.TRUNCATE_EXISTING,
              StandardOpenOption.WRITE)) {
        ByteBuffer buf = ByteBuffer.wrap(content);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      }
      if (ownerOnly) {
        Files.setPosixFilePermissions(
            tmp, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
      }
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      fsyncFolder(dir);
    } catch (IOException e) {
      deleteQuietly(tmp, e);
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  /**
   * Removes a temporary file a failed write left (on a full disk, the part written so far, which
   * would keep the next write from finding room); a failure to remove it joins {@code failure}.
   */
  public static void deleteQuietly(Path tmp, IOException failure) {
    try {
      Files.deleteIfExists(tmp);
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }

  /** Makes a folder's entries (a rename, a new file) durable; Linux allows fsync on a folder. */
  public static void fsyncFolder(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }
}
