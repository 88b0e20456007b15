package org.pgknob.server;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a PostgreSQL child process's title (its /proc/[pid]/cmdline) says it serves. A client
 * backend's title is {@code postgres: [cluster_name: ]user database host activity}, the host being
 * {@code [local]} or {@code address(port)}, even with update_process_title off (then without the
 * activity); a parallel worker's is {@code postgres: [cluster_name: ]parallel worker for PID n}.
 * Everything else (checkpointer, WAL writer, WAL senders, autovacuum, extensions' background
 * workers) is the server's own work.
 */
final class BackendTitle {
  private static final Pattern CLIENT =
      Pattern.compile("^postgres: (?:.*?: )?(\\S+) (\\S+) (?:\\[local\\]|\\S+\\(\\d+\\))(?: .*)?$");
  private static final Pattern PARALLEL =
      Pattern.compile("^postgres: (?:.*?: )?parallel worker for PID (\\d+)(?: .*)?$");

  private BackendTitle() {}

  /** The database of a client backend, or empty for any other process. */
  static Optional<String> clientDatabase(String title) {
    Matcher m = CLIENT.matcher(title.strip());
    // A WAL sender's title has the same shape: "walsender user host(port) state".
    if (!m.matches() || m.group(1).equals("walsender")) {
      return Optional.empty();
    }
    return Optional.of(m.group(2));
  }

  /** The leader's pid of a parallel worker, or empty for any other process. */
  static OptionalLong parallelLeader(String title) {
    Matcher m = PARALLEL.matcher(title.strip());
    return m.matches() ? OptionalLong.of(Long.parseLong(m.group(1))) : OptionalLong.empty();
  }
}
