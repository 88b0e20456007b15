package org.pgknob.session;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import org.pgknob.AtomicFiles;
import org.pgknob.PgknobException;
import org.pgknob.runs.EmptyRunFolder;
import org.pgknob.runs.Goal;
import org.pgknob.runs.JsonFile;
import org.pgknob.runs.RunFiles;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;

/**
 * A session's folder {@code runs/<id>/} and the files in it: session.json (inputs and state),
 * trials.jsonl (one line per trial), summary.json (results), restore.json (the server's original
 * settings, written by the target), best-&lt;track&gt;-&lt;objective&gt;.conf/.sql/.json (exports).
 *
 * <p>The id is the local start time, {@code 2026-11-29T22-10-00}: sortable, readable, and without
 * colons so it works in every shell and file system. Two sessions started in the same second get
 * {@code ...-2}, {@code ...-3}: the folder is created atomically, so no two sessions share one.
 */
public final class SessionFolder {
  public static final String SESSION_FILE = RunFiles.SESSION;
  public static final String TRIALS_FILE = RunFiles.TRIALS;
  public static final String SUMMARY_FILE = RunFiles.SUMMARY;
  public static final String RESTORE_FILE = "restore.json";

  private static final DateTimeFormatter ID_FORMAT =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH-mm-ss");
  private static final int MAX_SAME_SECOND = 1000;

  private final Path dir;
  private final TrialLog trials;

  private SessionFolder(Path dir) {
    this.dir = dir;
    this.trials = new TrialLog(dir.resolve(TRIALS_FILE));
  }

  /** Creates a new, empty session folder under {@code runsDir}, named by the clock's time. */
  public static SessionFolder create(Path runsDir, Clock clock) {
    String base = LocalDateTime.now(clock).format(ID_FORMAT);
    try {
      Files.createDirectories(runsDir);
      for (int n = 1; n <= MAX_SAME_SECOND; n++) {
        Path candidate = runsDir.resolve(n == 1 ? base : base + "-" + n);
        try {
          Files.createDirectory(candidate);
          AtomicFiles.fsyncFolder(runsDir);
          return new SessionFolder(candidate);
        } catch (FileAlreadyExistsException e) {
          // another session started in the same second: try the next suffix
        }
      }
    } catch (IOException e) {
      throw new PgknobException(
          "cannot create a session folder in " + runsDir + ": " + e.getMessage(),
          "give a writable folder with --out");
    }
    throw new PgknobException(
        "more than " + MAX_SAME_SECOND + " sessions started in " + runsDir + " at " + base,
        "wait a second and start again");
  }

  /**
   * Opens an existing session folder.
   *
   * @throws PgknobException when it is not a folder or holds no readable session.json
   */
  public static SessionFolder open(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new PgknobException(
          dir + " is not a folder", "give a session folder such as runs/2026-11-29T22-10-00");
    }
    SessionFolder folder = new SessionFolder(dir);
    folder.readState();
    return folder;
  }

  /**
   * Opens a session folder to continue it: refuses a finished session.
   *
   * @throws PgknobException when the folder is not a session or the session finished
   */
  public static SessionFolder openForResume(Path dir) {
    SessionFolder folder = open(dir);
    SessionState state = folder.readState();
    if (state.status() == SessionState.Status.FINISHED) {
      throw new PgknobException(
          "session " + state.id() + " already finished; there is nothing to resume",
          "see its results with pgknob export "
              + dir
              + ", or start a new session with pgknob tune");
    }
    return folder;
  }

  /**
   * Removes the folder when nothing was written to it (a session whose setup failed), so that no
   * folder without a session is left behind; a folder with any file stays. Says whether it removed
   * it.
   */
  public boolean removeIfEmpty() {
    try {
      return Files.deleteIfExists(dir);
    } catch (IOException e) {
      return false; // not empty, or not ours to remove: it stays
    }
  }

  public Path dir() {
    return dir;
  }

  /** The folder's name, which is the session's id. */
  public String id() {
    return dir.getFileName().toString();
  }

  public TrialLog trials() {
    return trials;
  }

  public Path file(String name) {
    return dir.resolve(name);
  }

  /** {@code best-<track>-<objective>.<extension>}, e.g. best-restart-tps.conf. */
  public Path bestFile(Track track, Goal objective, String extension) {
    return dir.resolve("best-" + track + "-" + objective + "." + extension);
  }

  /** Writes session.json atomically. */
  public void writeState(SessionState state) {
    sessionFile().write(state);
  }

  private JsonFile<SessionState> sessionFile() {
    return new JsonFile<>(dir, SESSION_FILE, SessionState.class);
  }

  public SessionState readState() {
    Path file = dir.resolve(SESSION_FILE);
    try {
      SessionState s = sessionFile().read();
      if (s == null || s.id() == null || s.status() == null) {
        throw new PgknobException(
            file + " is not a pgknob session file", "give a folder made by pgknob tune");
      }
      return s;
    } catch (NoSuchFileException | java.io.FileNotFoundException e) {
      EmptyRunFolder.refuse(dir);
      throw new PgknobException(
          dir + " is not a pgknob session: it has no " + SESSION_FILE,
          "give a folder made by pgknob tune, such as runs/2026-11-29T22-10-00");
    } catch (JsonProcessingException e) {
      throw new PgknobException(
          file + " is damaged: " + e.getOriginalMessage(),
          "restore it from a copy, or start a new session");
    } catch (IOException e) {
      throw new PgknobException(
          "cannot read " + file + ": " + e.getMessage(), "check the file's permissions");
    }
  }

  /** Writes summary.json atomically. */
  public void writeSummary(Summary summary) {
    JsonFile.summary(dir).write(summary);
  }

  /**
   * Reads summary.json.
   *
   * @throws PgknobException when the session has not written one yet, or it is damaged
   */
  public Summary readSummary() {
    JsonFile<Summary> summaryFile = JsonFile.summary(dir);
    Path file = summaryFile.path();
    if (!summaryFile.exists()) {
      throw new PgknobException(
          dir + " has no " + SUMMARY_FILE + " yet: the session has not finished a phase",
          "resume it with pgknob resume " + dir + " and try again when it has results");
    }
    try {
      return summaryFile.read();
    } catch (IOException e) {
      throw new PgknobException(
          file + " is damaged: " + e.getMessage(), "write it again with pgknob resume " + dir);
    }
  }

  @Override
  public String toString() {
    return dir.toString();
  }
}
