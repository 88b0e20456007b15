package org.pgknob.report;

import com.fasterxml.jackson.databind.JsonNode;
import org.pgknob.trial.Phase;

/**
 * What each section of the report says when it has nothing to show. While a session runs (or when
 * its folder does not say), that its data is still to come; once it ended, why there is none: its
 * plan held no such phase, or no trial of it succeeded. A finished default session plans no sweeps,
 * and its report once said "No sweep trial has succeeded yet", which reads as a session still
 * running.
 */
final class AbsentTexts {
  private AbsentTexts() {}

  static ReportModel.Absent of(SessionData data) {
    String status = data.status();
    if (status.isEmpty() || status.equals("running")) {
      return new ReportModel.Absent(
          "No trial has succeeded yet.",
          "No sweep or Bayesian trial has succeeded yet.",
          "No sweep trial has succeeded yet.",
          "No sweep yet.",
          "No model yet: it is fitted during the Bayesian phase.",
          "No Bayesian phase has begun yet.",
          "No successful trial with a per-second timeline yet.",
          "No successful trial with a per-transaction profile yet.",
          "No trial has finished yet.");
    }
    JsonNode plan = data.session().path("plan");
    boolean sweepsPlanned = planned(plan, "sweeps");
    boolean bayesPlanned = planned(plan, "bayes");
    String noSearch =
        "This session searched nothing: it measured the configurations it was given against the"
            + " defaults.";
    int bayesOk = data.okPhase(Phase.BAYES).size();
    String model;
    String knobs;
    if (!bayesPlanned) {
      model = "No model: this session planned no Bayesian search.";
      knobs = "This session planned no Bayesian search.";
    } else if (data.phase(Phase.BAYES).isEmpty()) {
      model = "No model: the session ended before its Bayesian phase.";
      knobs = "The session ended before its Bayesian phase.";
    } else if (data.summary() == null) {
      model = "No model ranking: the session wrote no summary.json.";
      knobs = "No list of the knobs searched: the session wrote no summary.json.";
    } else {
      model =
          bayesOk == 0
              ? "No model: no Bayesian trial succeeded."
              : Num.f(
                  "No model was fitted: %d Bayesian trial%s too few for one.",
                  bayesOk, bayesOk == 1 ? " was" : "s were");
      knobs = "summary.json holds no list of the knobs searched: an older pgknob wrote it.";
    }
    return new ReportModel.Absent(
        "No trial succeeded.",
        sweepsPlanned || bayesPlanned ? "No sweep or Bayesian trial succeeded." : noSearch,
        sweepsPlanned
            ? "No sweep trial succeeded."
            : bayesPlanned
                ? "This session planned no sweeps: its search was too short for them (they take"
                    + " 30% of the search once that makes 3 trials or more), so its trials went to"
                    + " the baselines, the Bayesian search and validation. A longer --budget"
                    + " sweeps first."
                : noSearch,
        sweepsPlanned ? "No sweep succeeded." : "No sweeps in this session.",
        model,
        knobs,
        "No successful trial with a per-second timeline.",
        "No successful trial with a per-transaction profile.",
        "No trial finished.");
  }

  /** Whether the plan holds this phase; a folder without a plan holds every phase. */
  private static boolean planned(JsonNode plan, String phase) {
    JsonNode node = plan.path(phase);
    return !node.isArray() || !node.isEmpty();
  }
}
