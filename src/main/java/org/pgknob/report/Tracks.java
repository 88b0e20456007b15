package org.pgknob.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.pgknob.runs.Track;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;

/** The tracks of a session in report order: reload, restart, then any other by name. */
final class Tracks {
  private Tracks() {}

  /** Phases whose trials search for a track's optimum. */
  static boolean searching(TrialResult t) {
    return t.phase() == Phase.SWEEP || t.phase() == Phase.BAYES;
  }

  static List<Track> of(SessionData data) {
    List<Track> tracks = new ArrayList<>();
    for (TrialResult t : data.trials()) {
      if (searching(t) && t.track() != null && !tracks.contains(t.track())) {
        tracks.add(t.track());
      }
    }
    tracks.sort(Comparator.naturalOrder()); // reload first, as a session runs them
    return tracks;
  }

  /** A run of the server's defaults: nothing configured (baseline, reference, validation's A). */
  static boolean isDefaults(TrialResult t) {
    return t.config().isEmpty() && t.settings().isEmpty();
  }

  /** The searching trials of {@code track} that succeeded, by trial number. */
  static List<TrialResult> okSearch(SessionData data, Track track) {
    return data.trials().stream()
        .filter(t -> t.isOk() && searching(t) && track == t.track())
        .toList();
  }

  /**
   * The palette key of a trial: its phase for baseline, pgtune, validation; a reference run of the
   * defaults is drawn as the baseline; else its track.
   */
  static String colourKey(TrialResult t) {
    Phase phase = t.phase() == null ? Phase.BASELINE : t.phase();
    return switch (phase) {
      case BASELINE, PGTUNE, VALIDATION -> phase.label();
      case REFERENCE -> Phase.BASELINE.label();
      default -> t.track() == null ? Phase.BASELINE.label() : t.track().label();
    };
  }
}
