package org.pgknob.runs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.pgknob.PgknobException;

/**
 * A session folder with nothing in it: what a session stopped during its setup by kill -9, a crash
 * or a power cut leaves (Ctrl-C and SIGTERM remove it). Commands given one name it as that, where
 * they said it was "not a pgknob session", of a folder pgknob had made itself.
 */
public final class EmptyRunFolder {
  /** A session's folder name, as SessionFolder makes it: 2026-12-07T17-28-13, or ...-2. */
  private static final Pattern SESSION_ID =
      Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}(-\\d+)?");

  private EmptyRunFolder() {}

  /**
   * @throws PgknobException when {@code dir} is a folder with nothing in it and a session's name
   *     (an empty folder of any other name is not said to be pgknob's)
   */
  public static void refuse(Path dir) {
    if (!isEmpty(dir)) {
      return;
    }
    throw new PgknobException(
        dir
            + " is empty: a session stopped during its setup (kill -9, a crash) recorded nothing"
            + " there, and changed no setting of the server",
        "remove it (rm -r " + dir + ") and start again with pgknob tune");
  }

  private static boolean isEmpty(Path dir) {
    Path name = dir.toAbsolutePath().normalize().getFileName();
    if (name == null || !SESSION_ID.matcher(name.toString()).matches() || !Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> entries = Files.list(dir)) {
      return entries.findAny().isEmpty();
    } catch (IOException e) {
      return false;
    }
  }
}
