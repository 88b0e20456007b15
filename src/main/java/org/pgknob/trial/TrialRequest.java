package org.pgknob.trial;

import java.util.Map;
import org.pgknob.runs.Track;

/**
 * What one trial should run: its place in the session and the settings to apply on top of the
 * server's original settings.
 *
 * @param trial 1-based number within the session
 * @param phase baseline, sweep, bayes, validation
 * @param track reload or restart
 * @param label the plan's label for the step (resume matches on it)
 * @param config the configuration's values in each knob's unit (empty: the defaults)
 * @param settings the same as PostgreSQL takes them; may hold settings outside the search space (a
 *     PGTune-style configuration)
 * @param predictedMemoryBytes the safety rules' prediction, or null
 * @param rejection why the safety rules refused it (the trial then runs nothing), or null
 */
public record TrialRequest(
    int trial,
    Phase phase,
    Track track,
    String label,
    Map<String, Object> config,
    Map<String, String> settings,
    Long predictedMemoryBytes,
    String rejection) {
  public TrialRequest {
    config = Map.copyOf(config);
    settings = Map.copyOf(settings);
  }
}
