package org.pgknob.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.pgknob.runs.Summary;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/**
 * What a session folder holds, read tolerantly: the report is drawn from this alone.
 *
 * @param runDir the session folder
 * @param session session.json as a tree (empty object when absent or unreadable)
 * @param trials the readable lines of trials.jsonl, by trial number
 * @param incompleteLines 1 when the last line of trials.jsonl was cut off mid-write, else 0
 * @param unreadableLines lines before the last that could not be read (a damaged file)
 * @param summary summary.json, or null when absent or unreadable
 * @param problems one sentence per file that could not be read, for the report's notices
 */
public record SessionData(
    Path runDir,
    JsonNode session,
    List<TrialResult> trials,
    int incompleteLines,
    int unreadableLines,
    Summary summary,
    List<String> problems) {

  public SessionData {
    trials = List.copyOf(trials);
    problems = List.copyOf(problems);
  }

  /** The session's id: session.json's "id", else summary's, else the folder's name. */
  public String sessionId() {
    String fromSession = session.path("id").asText("");
    if (!fromSession.isEmpty()) {
      return fromSession;
    }
    if (summary != null && summary.sessionId() != null) {
      return summary.sessionId();
    }
    Path name = runDir.toAbsolutePath().normalize().getFileName();
    return name == null ? runDir.toString() : name.toString();
  }

  /**
   * The session's status ("finished", "stopped", "failed", "running"): session.json's, an older
   * folder's "state" there or in summary.json; empty when none says.
   */
  public String status() {
    for (String field : List.of("status", "state")) {
      String value = session.path(field).isTextual() ? session.path(field).asText() : "";
      if (!value.isEmpty()) {
        return value;
      }
    }
    return summary != null && summary.state() != null ? summary.state() : "";
  }

  public List<TrialResult> okTrials() {
    return trials.stream().filter(TrialResult::isOk).collect(Collectors.toList());
  }

  /** The finished trials of one phase (baseline, sweep, bayes, validation, pgtune). */
  public List<TrialResult> phase(Phase phase) {
    return trials.stream().filter(t -> t.phase() == phase).collect(Collectors.toList());
  }

  public List<TrialResult> okPhase(Phase phase) {
    return phase(phase).stream().filter(TrialResult::isOk).collect(Collectors.toList());
  }
}
