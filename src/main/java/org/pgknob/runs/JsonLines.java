package org.pgknob.runs;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.pgknob.Json;
import org.pgknob.PgknobException;

/**
 * A file of one JSON record per line, appended and forced to disk record by record (trials.jsonl):
 * the one reader and the one writer, with one rule for what a kill leaves.
 *
 * <p>A kill during a write can leave a last line without its newline. Reading counts such a line
 * that is no record as cut off and leaves it out; the next append first cuts it off (or completes
 * it when it is a whole record that only lacks the newline). Any other line that is no record is
 * damage: the reader lists it, and each caller decides (the session refuses a damaged log, the
 * report shows what it can).
 *
 * @param <T> the record type, read and written with pgknob's {@link Json} mapper
 */
public final class JsonLines<T> {
  private final Path file;
  private final Class<T> type;
  private final Predicate<T> whole;
  private boolean tailChecked;

  /**
   * @param whole true for a record with the fields every record has (a line of {@code {}} parses
   *     but is no record)
   */
  public JsonLines(Path file, Class<T> type, Predicate<T> whole) {
    this.file = file;
    this.type = type;
    this.whole = whole;
  }

  public Path file() {
    return file;
  }

  /**
   * What a read found.
   *
   * @param records the readable records, in file order
   * @param cutOffLines 1 when the last line lacks its newline and is no record, else 0
   * @param damagedLines the 1-based numbers of other lines that are no record, each with why
   */
  public record Contents<T>(List<T> records, int cutOffLines, List<String> damagedLines) {
    public Contents {
      records = List.copyOf(records);
      damagedLines = List.copyOf(damagedLines);
    }
  }

  /** Reads every line; an absent file holds no records. */
  public Contents<T> read() {
    if (!Files.exists(file)) {
      return new Contents<>(List.of(), 0, List.of());
    }
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new PgknobException(
          "cannot read " + file + ": " + e.getMessage(), "check the file's permissions");
    }
    List<T> records = new ArrayList<>();
    List<String> damaged = new ArrayList<>();
    int cutOff = 0;
    String[] lines = text.split("\n", -1);
    // after the last newline comes "" (a complete file) or an unterminated tail
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (line.isBlank()) {
        continue;
      }
      try {
        records.add(parse(line));
      } catch (JsonProcessingException | RuntimeException e) {
        if (i == lines.length - 1) {
          cutOff++;
        } else {
          damaged.add("line " + (i + 1) + ": " + reason(e));
        }
      }
    }
    return new Contents<>(records, cutOff, damaged);
  }

  /** Appends one record as a line and forces it to disk before returning. */
  public synchronized void append(T record) {
    byte[] line;
    try {
      line = (Json.mapper().writeValueAsString(record) + "\n").getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a record of " + file + " as JSON", e);
    }
    try {
      if (!tailChecked) {
        repairTail();
        tailChecked = true;
      }
      try (FileChannel ch =
          FileChannel.open(
              file,
              StandardOpenOption.CREATE,
              StandardOpenOption.APPEND,
              StandardOpenOption.WRITE)) {
        long before = ch.size();
        try {
          ByteBuffer buf = ByteBuffer.wrap(line);
          while (buf.hasRemaining()) {
            ch.write(buf);
          }
          ch.force(true);
        } catch (IOException e) {
          // A full disk takes part of the line: cut it off, so the file ends with the last
          // record written whole, as it did before.
          try {
            ch.truncate(before);
          } catch (IOException t) {
            e.addSuppressed(t);
          }
          throw e;
        }
      }
    } catch (IOException e) {
      throw JsonFile.writeFailure("cannot append to " + file, file, e);
    }
  }

  /** Cuts off (or completes) a last line that a kill left without its newline. */
  private void repairTail() throws IOException {
    if (!Files.exists(file)) {
      return;
    }
    byte[] bytes = Files.readAllBytes(file);
    int end = bytes.length;
    if (end == 0 || bytes[end - 1] == '\n') {
      return;
    }
    int lastNewline = end - 1;
    while (lastNewline >= 0 && bytes[lastNewline] != '\n') {
      lastNewline--;
    }
    String tail = new String(bytes, lastNewline + 1, end - lastNewline - 1, StandardCharsets.UTF_8);
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      if (isRecord(tail)) {
        ch.position(end);
        ch.write(ByteBuffer.wrap(new byte[] {'\n'}));
      } else {
        ch.truncate(lastNewline + 1);
      }
      ch.force(true);
    }
  }

  private boolean isRecord(String line) {
    try {
      parse(line);
      return true;
    } catch (JsonProcessingException | RuntimeException e) {
      return false;
    }
  }

  private T parse(String line) throws JsonProcessingException {
    T t = Json.mapper().readValue(line, type);
    if (t == null || !whole.test(t)) {
      throw new IllegalArgumentException("not a record of " + file.getFileName());
    }
    return t;
  }

  private static String reason(Exception e) {
    String m =
        e instanceof JsonProcessingException j
            ? String.valueOf(j.getOriginalMessage())
            : String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
