package org.pgknob.runs;

import java.util.Optional;

/**
 * A track and an objective: the name of a search's optimum in the plan, the results and the exports
 * ({@code restart/tps}). Other result rows (defaults, pgtune, a compared file) have no key.
 *
 * @param track reload or restart
 * @param objective tps or latency
 */
public record ResultKey(Track track, Goal objective) {
  public ResultKey {
    if (track == null || objective == null) {
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
    try {
      return Optional.of(
          new ResultKey(Track.of(name.substring(0, slash)), Goal.of(name.substring(slash + 1))));
    } catch (IllegalArgumentException notAKey) {
      return Optional.empty();
    }
  }

  /** The key a row name spells; the name must be one ({@code reload/latency}). */
  public static ResultKey parse(String name) {
    return of(name)
        .orElseThrow(
            () -> new IllegalArgumentException("'" + name + "' names no track and objective"));
  }

  /** The row name: {@code restart/tps}. */
  public String name() {
    return track.label() + "/" + objective.label();
  }
}
