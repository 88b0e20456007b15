package org.pgknob.session;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.pgknob.PgknobException;
import org.pgknob.runs.Summary;

/**
 * {@code runs/<id>/session.json}: what a session was started with and where it stands. Together
 * with trials.jsonl it is all a resume needs.
 *
 * @param id the folder's name
 * @param pgknobVersion the version that started the session
 * @param status running, finished, stopped (Ctrl-C), failed
 * @param createdAt when the session started
 * @param updatedAt when this file was last written
 * @param inputs the options as given (budget, tracks, objective, workload, space, rules, ...)
 * @param seed the random seed of every optimizer in the session
 * @param machine the host the server runs on
 * @param postgresVersion server_version of the target
 * @param target the target's description (passwords are removed before storing)
 * @param dataDirectory the server's data_directory, to recognise the same server on resume
 * @param originalSettings the file (in the folder) holding the server's original settings
 * @param settings default and context of each knob the session may change, for exports
 * @param plan the trials the session runs, in order
 * @param progress where the session stands, for people and the report
 */
public record SessionState(
    String id,
    String pgknobVersion,
    Status status,
    Instant createdAt,
    Instant updatedAt,
    Map<String, Object> inputs,
    long seed,
    Summary.Machine machine,
    String postgresVersion,
    String target,
    String dataDirectory,
    String originalSettings,
    Map<String, SettingFact> settings,
    SessionPlan plan,
    Progress progress) {

  private static final Pattern URL_PASSWORD = Pattern.compile("(?i)(password|pass|pwd)=[^&;\\s]*");
  private static final Pattern USERINFO_PASSWORD = Pattern.compile("(//[^/:@\\s]+):[^@/\\s]*@");

  public SessionState {
    inputs = inputs == null ? Map.of() : Map.copyOf(inputs);
    settings = settings == null ? Map.of() : Map.copyOf(settings);
    target = withoutPassword(target);
    progress = progress == null ? Progress.NOT_STARTED : progress;
  }

  /** The lifecycle state of a session. */
  public enum Status {
    RUNNING,
    FINISHED,
    STOPPED,
    FAILED;

    @JsonValue
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static Status parse(String text) {
      return valueOf(text.toUpperCase(Locale.ROOT));
    }
  }

  /**
   * Where a session stands.
   *
   * @param phase the phase of the last finished trial, or empty before the first
   * @param trialsDone trials logged
   * @param trialsPlanned trials in the plan
   * @param message a note for people: why it stopped or failed, or empty
   */
  public record Progress(String phase, int trialsDone, int trialsPlanned, String message) {
    public static final Progress NOT_STARTED = new Progress("", 0, 0, "");

    public Progress {
      phase = phase == null ? "" : phase;
      message = message == null ? "" : message;
    }
  }

  public SessionState withStatus(Status newStatus, String message, Instant now) {
    return new SessionState(
        id,
        pgknobVersion,
        newStatus,
        createdAt,
        now,
        inputs,
        seed,
        machine,
        postgresVersion,
        target,
        dataDirectory,
        originalSettings,
        settings,
        plan,
        new Progress(progress.phase(), progress.trialsDone(), progress.trialsPlanned(), message));
  }

  public SessionState withProgress(Progress newProgress, Instant now) {
    return new SessionState(
        id,
        pgknobVersion,
        status,
        createdAt,
        now,
        inputs,
        seed,
        machine,
        postgresVersion,
        target,
        dataDirectory,
        originalSettings,
        settings,
        plan,
        newProgress);
  }

  /** The state with its plan changed (validation's rounds re-counted), the inputs as they were. */
  public SessionState withPlan(SessionPlan newPlan, Instant now) {
    return withChosenWindow(inputs, newPlan, now);
  }

  /**
   * The state once --duration auto chose its window: the inputs that record the choice and the plan
   * remade for it (the baselines it ran stay its first steps).
   */
  public SessionState withChosenWindow(
      Map<String, Object> newInputs, SessionPlan newPlan, Instant now) {
    return new SessionState(
        id,
        pgknobVersion,
        status,
        createdAt,
        now,
        newInputs,
        seed,
        machine,
        postgresVersion,
        target,
        dataDirectory,
        originalSettings,
        settings,
        newPlan,
        new Progress(
            progress.phase(), progress.trialsDone(), newPlan.totalTrials(), progress.message()));
  }

  /**
   * Refuses to resume against a server other than the one the session started on: its results would
   * mix two machines' measurements.
   */
  public void checkSameTarget(String currentPostgresVersion, String currentDataDirectory) {
    if (!postgresVersion.equals(currentPostgresVersion)) {
      throw new PgknobException(
          "the target changed since session "
              + id
              + " started: PostgreSQL "
              + postgresVersion
              + " then, "
              + currentPostgresVersion
              + " now",
          "resume against the same server, or start a new session with pgknob tune");
    }
    if (!dataDirectory.equals(currentDataDirectory)) {
      throw new PgknobException(
          "the target changed since session "
              + id
              + " started: data folder "
              + dataDirectory
              + " then, "
              + currentDataDirectory
              + " now",
          "resume against the same server, or start a new session with pgknob tune");
    }
  }

  /** A target description with any password in a URL or key=value form removed. */
  static String withoutPassword(String description) {
    if (description == null) {
      return "";
    }
    String s = URL_PASSWORD.matcher(description).replaceAll("$1=***");
    return USERINFO_PASSWORD.matcher(s).replaceAll("$1:***@");
  }
}
