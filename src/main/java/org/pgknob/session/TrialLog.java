package org.pgknob.session;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.pgknob.Json;
import org.pgknob.PgknobException;
import org.pgknob.trial.TrialResult;

/**
 * {@code runs/<id>/trials.jsonl}: one JSON line per finished trial, appended and fsynced as the
 * trial ends, so a session killed at any moment loses at most the trial that was running.
 *
 * <p>A kill during the write can leave a last line without its newline: reading counts it as
 * truncated and leaves it out; the next append first cuts it off (or completes it when it is a
 * whole record that only lacks the newline). Any other unreadable line means the file was damaged,
 * and reading refuses it.
 */
public final class TrialLog {
  private final Path file;
  private boolean tailChecked;

  public TrialLog(Path file) {
    this.file = file;
  }

  public Path file() {
    return file;
  }

  /**
   * The trials read back.
   *
   * @param trials the complete records, in file order
   * @param truncatedLines 1 when the last line was cut short by a kill, else 0
   */
  public record Contents(List<TrialResult> trials, int truncatedLines) {
    public Contents {
      trials = List.copyOf(trials);
    }

    /** The number the next trial gets. */
    public int nextTrialNumber() {
      return trials.isEmpty() ? 1 : trials.get(trials.size() - 1).trial() + 1;
    }
  }

  /** Reads every complete trial; an absent file is an empty log. */
  public Contents read() {
    if (!Files.exists(file)) {
      return new Contents(List.of(), 0);
    }
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new PgknobException(
          "cannot read " + file + ": " + e.getMessage(), "check the file's permissions");
    }
    List<TrialResult> trials = new ArrayList<>();
    int truncated = 0;
    String[] lines = text.split("\n", -1);
    // after the last newline comes "" (complete file) or an unterminated tail
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      boolean last = i == lines.length - 1;
      if (line.isBlank()) {
        continue;
      }
      try {
        trials.add(parse(line));
      } catch (JsonProcessingException e) {
        if (last) {
          truncated++;
        } else {
          throw new PgknobException(
              file + " line " + (i + 1) + " is not a trial record: " + e.getOriginalMessage(),
              "the file was edited or damaged; restore it from a copy or start a new session");
        }
      }
    }
    return new Contents(trials, truncated);
  }

  /** Appends one trial as a line and forces it to disk before returning. */
  public synchronized void append(TrialResult trial) {
    byte[] line;
    try {
      line = (Json.mapper().writeValueAsString(trial) + "\n").getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write trial " + trial.trial() + " as JSON", e);
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
        ByteBuffer buf = ByteBuffer.wrap(line);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to " + file, e);
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

  private static boolean isRecord(String line) {
    try {
      parse(line);
      return true;
    } catch (JsonProcessingException e) {
      return false;
    }
  }

  private static TrialResult parse(String line) throws JsonProcessingException {
    TrialResult t = Json.mapper().readValue(line, TrialResult.class);
    if (t == null || t.trial() < 1 || t.phase() == null) {
      throw new com.fasterxml.jackson.core.JsonParseException(null, "not a trial record");
    }
    return t;
  }
}
