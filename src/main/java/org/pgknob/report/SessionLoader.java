package org.pgknob.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.pgknob.PgknobException;
import org.pgknob.runs.EmptyRunFolder;
import org.pgknob.runs.JsonFile;
import org.pgknob.runs.JsonLines;
import org.pgknob.runs.RunFiles;
import org.pgknob.runs.Summary;
import org.pgknob.trial.TrialResult;

/**
 * Reads a session folder for the report, forgiving what a killed or running session leaves behind:
 * a cut-off last line, a missing or half-written summary.json, missing keys. Only a folder that is
 * not a session at all is an error.
 */
public final class SessionLoader {
  static final String SESSION_FILE = RunFiles.SESSION;
  static final String TRIALS_FILE = RunFiles.TRIALS;
  static final String SUMMARY_FILE = RunFiles.SUMMARY;

  private SessionLoader() {}

  /**
   * Loads {@code runDir}.
   *
   * @throws PgknobException when the folder does not exist or holds neither session.json nor
   *     trials.jsonl
   */
  public static SessionData load(Path runDir) {
    if (!Files.isDirectory(runDir)) {
      throw new PgknobException(
          runDir + " is not a folder", "give a session folder such as runs/<id>");
    }
    Path sessionFile = runDir.resolve(SESSION_FILE);
    Path trialsFile = runDir.resolve(TRIALS_FILE);
    if (Files.exists(runDir.resolve(RunFiles.OPTIMIZE)) && !Files.exists(sessionFile)) {
      throw new PgknobException(
          runDir
              + " is a `pgknob optimize` run, not a tuning session: its trials measure a"
              + " command's value, with no server, baseline or validation to report",
          "read its trials.jsonl (one trial record per line, the value under workload.extra);"
              + " give report a folder that `pgknob tune` or `compare` wrote");
    }
    if (!Files.exists(sessionFile) && !Files.exists(trialsFile)) {
      EmptyRunFolder.refuse(runDir);
      throw new PgknobException(
          runDir + " is not a session: it has neither session.json nor trials.jsonl",
          "give a folder that `pgknob tune` wrote, such as runs/<id>");
    }
    List<String> problems = new ArrayList<>();
    JsonNode session = readSession(new JsonFile<>(runDir, SESSION_FILE, JsonNode.class), problems);
    TrialLines lines = readTrials(trialsFile, problems);
    Summary summary = readSummary(JsonFile.summary(runDir), problems);
    return new SessionData(
        runDir, session, lines.trials, lines.incomplete, lines.unreadable, summary, problems);
  }

  private static JsonNode readSession(JsonFile<JsonNode> file, List<String> problems) {
    if (!file.exists()) {
      problems.add("session.json is missing: the session's inputs are unknown.");
      return JsonNodeFactory.instance.objectNode();
    }
    try {
      JsonNode node = file.read();
      if (node != null && node.isObject()) {
        return node;
      }
      problems.add("session.json does not hold a JSON object; its contents are ignored.");
    } catch (IOException e) {
      problems.add("session.json could not be read (" + firstLine(e) + "); it is ignored.");
    }
    return JsonNodeFactory.instance.objectNode();
  }

  private record TrialLines(List<TrialResult> trials, int incomplete, int unreadable) {}

  /**
   * Through the session's own reader: a cut-off last line is incomplete, another bad line is
   * damage.
   */
  private static TrialLines readTrials(Path file, List<String> problems) {
    JsonLines.Contents<TrialResult> read;
    try {
      read = TrialResult.lines(file).read();
    } catch (PgknobException e) {
      problems.add("trials.jsonl could not be read (" + e.getMessage() + ").");
      return new TrialLines(List.of(), 0, 0);
    }
    List<TrialResult> trials = new ArrayList<>(read.records());
    trials.sort(Comparator.comparingInt(TrialResult::trial));
    return new TrialLines(trials, read.cutOffLines(), read.damagedLines().size());
  }

  private static Summary readSummary(JsonFile<Summary> file, List<String> problems) {
    if (!file.exists()) {
      return null;
    }
    try {
      return file.read();
    } catch (IOException | RuntimeException e) {
      problems.add("summary.json could not be read (" + firstLine(e) + "); it is ignored.");
      return null;
    }
  }

  private static String firstLine(Exception e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
