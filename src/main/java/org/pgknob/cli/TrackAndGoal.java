package org.pgknob.cli;

import java.util.List;
import java.util.Locale;
import org.pgknob.PgknobException;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Track;

/** {@code --tracks}, {@code --track} and {@code --objective} as typed values, or a user error. */
final class TrackAndGoal {
  private TrackAndGoal() {}

  /** The tracks {@code --tracks} names, in the order given. */
  static List<Track> tracks(List<String> labels) {
    return labels.stream()
        .map(l -> track(l, "--tracks takes reload, restart or reload,restart"))
        .toList();
  }

  /** The track a label names; {@code fix} says what the option takes. */
  static Track track(String label, String fix) {
    try {
      return Track.of(label.trim().toLowerCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new PgknobException("unknown track '" + label + "'", fix);
    }
  }

  /** The objective a label names; {@code fix} says what the option takes. */
  static Goal goal(String label, String fix) {
    try {
      return Goal.of(label.trim().toLowerCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new PgknobException("unknown objective '" + label + "'", fix);
    }
  }
}
