package org.pgknob.session;

import java.nio.file.Path;

/** Session folders for tests outside this package. */
public final class SessionFolderFixtures {
  private SessionFolderFixtures() {}

  /** A finished session with a summary, session facts, baselines and one sweep trial. */
  public static SessionFolder finished(Path runs) {
    return SessionExportTest.finishedSession(runs);
  }
}
