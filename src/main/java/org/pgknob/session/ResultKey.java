package org.pgknob.session;

import java.util.Optional;

/**
 * A track and an objective: the name of a search's optimum in the plan, the results and the exports
 * ({@code restart/tps}). Other result rows (defaults, pgtune, a compared file) have no key.
 *
 * @param track reload or restart
 * @param objective tps or latency
 */
public record ResultKey(String track, String objective) {
  public ResultKey {
    if (!SessionInputs.TRACKS.contains(track) || !SessionInputs.OBJECTIVES.contains(objective)) {
      throw new IllegalArgumentException(
          "a result key is a track (reload, restart) and an objective (tps, latency), but got "
              + track
              + "/"
              + objective);
    }
  }

  /** The key a row name spells ({@code restart/tps}), or empty for a row of no search. */
  public static Optional<ResultKey> of(String name) {
    int slash = name.indexOf('/');
    if (slash < 0) {
      return Optional.empty();
    }
    String track = name.substring(0, slash);
    String objective = name.substring(slash + 1);
    return SessionInputs.TRACKS.contains(track) && SessionInputs.OBJECTIVES.contains(objective)
        ? Optional.of(new ResultKey(track, objective))
        : Optional.empty();
  }

  /** The key a row name spells; the name must be one ({@code reload/latency}). */
  public static ResultKey parse(String name) {
    return of(name)
        .orElseThrow(
            () -> new IllegalArgumentException("'" + name + "' names no track and objective"));
  }

  /** The row name: {@code restart/tps}. */
  public String name() {
    return track + "/" + objective;
  }
}
