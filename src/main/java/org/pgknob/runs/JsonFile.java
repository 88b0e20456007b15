package org.pgknob.runs;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.pgknob.AtomicFiles;
import org.pgknob.Json;
import org.pgknob.PgknobException;

/**
 * A run folder's whole-file JSON document, session.json or summary.json: the one writer (atomic,
 * pretty-printed) and the one reader (the shared mapper, so unknown fields of newer folders are
 * ignored) of each, as {@link JsonLines} is of trials.jsonl. Readers decide what a missing or
 * damaged file means to them; this class only reads it.
 *
 * @param <T> the record the file holds
 */
public final class JsonFile<T> {
  private final Path file;
  private final Class<T> type;

  /** The file {@code name} of run folder {@code dir}, holding a {@code type}. */
  public JsonFile(Path dir, String name, Class<T> type) {
    this.file = dir.resolve(name);
    this.type = type;
  }

  /** summary.json of run folder {@code dir}. */
  public static JsonFile<Summary> summary(Path dir) {
    return new JsonFile<>(dir, RunFiles.SUMMARY, Summary.class);
  }

  public Path path() {
    return file;
  }

  public boolean exists() {
    return Files.exists(file);
  }

  /**
   * The document; null when the file holds JSON null.
   *
   * @throws IOException when it is missing, unreadable or not the record's JSON
   */
  public T read() throws IOException {
    return Json.mapper().readValue(file.toFile(), type);
  }

  /**
   * Writes the document atomically: a reader sees the old file or the new one, never a part.
   *
   * @throws PgknobException when the disk refuses it
   */
  public void write(T value) {
    try {
      AtomicFiles.write(
          file, Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(value));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write " + file.getFileName() + " as JSON", e);
    } catch (UncheckedIOException e) {
      throw writeFailure("cannot write " + file, file, e.getCause());
    }
  }

  /**
   * A failed write of one of the run folder's files as the user reads it: what failed, the disk's
   * own words ("No space left on device"), and the fix.
   */
  static PgknobException writeFailure(String what, Path file, java.io.IOException cause) {
    return new PgknobException(
        what + ": " + cause.getMessage(),
        "free space on the disk that holds "
            + file.toAbsolutePath().getParent()
            + ", or make that folder writable",
        cause);
  }
}
