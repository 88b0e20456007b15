package org.pgknob.runs;

/**
 * The names of the files in a run folder ({@code runs/<id>/}), in one place for the session that
 * writes them and the report, compare and export that read them.
 */
public final class RunFiles {
  /** The session's inputs, machine, versions and progress. */
  public static final String SESSION = "session.json";

  /** One JSON line per finished trial, appended and flushed ({@link JsonLines}). */
  public static final String TRIALS = "trials.jsonl";

  /** The validated results, noise and rankings, written at the end. */
  public static final String SUMMARY = "summary.json";

  /**
   * The inputs of a {@code pgknob optimize} run (optimizer, space, direction, seed): beside its
   * trials.jsonl instead of session.json, and what tells the report the folder is no session.
   */
  public static final String OPTIMIZE = "optimize.json";

  private RunFiles() {}
}
