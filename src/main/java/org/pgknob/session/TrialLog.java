package org.pgknob.session;

import java.nio.file.Path;
import java.util.List;
import org.pgknob.PgknobException;
import org.pgknob.runs.JsonLines;
import org.pgknob.trial.TrialResult;

/**
 * {@code runs/<id>/trials.jsonl}: one JSON line per finished trial, appended and fsynced as the
 * trial ends, so a session killed at any moment loses at most the trial that was running. Read and
 * written through {@link JsonLines}, whose rule for a cut-off last line the report shares; a
 * session refuses any other damaged line.
 */
public final class TrialLog {
  private final JsonLines<TrialResult> lines;

  public TrialLog(Path file) {
    this.lines = TrialResult.lines(file);
  }

  public Path file() {
    return lines.file();
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
    JsonLines.Contents<TrialResult> read = lines.read();
    if (!read.damagedLines().isEmpty()) {
      String first = read.damagedLines().get(0); // "line 2: why"
      int colon = first.indexOf(": ");
      throw new PgknobException(
          file()
              + " "
              + first.substring(0, colon)
              + " is not a trial record: "
              + first.substring(colon + 2),
          "the file was edited or damaged; restore it from a copy or start a new session");
    }
    return new Contents(read.records(), read.cutOffLines());
  }

  /** Appends one trial as a line and forces it to disk before returning. */
  public void append(TrialResult trial) {
    lines.append(trial);
  }
}
