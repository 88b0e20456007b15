package org.pgknob.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.trial.Status;
import org.pgknob.trial.TrialResult;

/**
 * The session at a glance: where it ran, on what, with which workload and budget, and what was put
 * back. summary.json is preferred; session.json fills what it lacks, so an unfinished session still
 * has its facts. Missing keys are left out rather than shown empty.
 */
final class GlanceFacts {
  private static final com.fasterxml.jackson.core.type.TypeReference<Map<String, Object>>
      WORKLOAD_MAP = new com.fasterxml.jackson.core.type.TypeReference<>() {};

  private GlanceFacts() {}

  static List<ReportModel.Fact> build(SessionData data, Baseline baseline) {
    JsonNode session = data.session();
    JsonNode inputs = session.path("inputs");
    Summary s = data.summary();
    List<ReportModel.Fact> facts = new ArrayList<>();
    add(facts, "session", data.sessionId());
    add(facts, "state", s != null && s.state() != null ? s.state() : text(session.path("state")));
    add(
        facts,
        "started",
        s != null && s.startedAt() != null
            ? Labels.time(s.startedAt())
            : Labels.time(text(session.path("createdAt"))));
    if (s != null && s.finishedAt() != null) {
      add(facts, "finished", Labels.time(s.finishedAt()));
    }
    add(
        facts,
        "machine",
        s != null && s.machine() != null ? machine(s.machine()) : machine(session.path("machine")));
    add(
        facts,
        "PostgreSQL",
        s != null && s.postgresVersion() != null
            ? s.postgresVersion()
            : text(session.path("postgresVersion")));
    add(
        facts,
        "target",
        s != null && s.target() != null ? s.target() : text(session.path("target")));
    String workload =
        s != null && s.workload() != null && !s.workload().isEmpty()
            ? Labels.workload(s.workload())
            : inputs.path("workload").isObject()
                ? Labels.workload(
                    org.pgknob.Json.mapper().convertValue(inputs.path("workload"), WORKLOAD_MAP))
                : text(inputs.path("workload"));
    add(facts, "workload", workload);
    add(facts, "objective", text(inputs.path("objective")));
    add(facts, "tracks", text(inputs.path("tracks")));
    add(facts, "seed", text(inputs.path("seed")));
    add(facts, "budget", budget(data, inputs));
    add(facts, "trials", trialCounts(data));
    if (baseline.runs() > 0) {
      List<Double> tps = baseline.values(Metric.TPS);
      double mean = Num.mean(tps);
      add(
          facts,
          "baseline noise",
          Num.f(
              "TPS %s ± %.1f%% (coefficient of variation over %d run%s)",
              Num.fmt(mean),
              mean > 0 ? 100 * Num.sd(tps) / mean : 0,
              tps.size(),
              tps.size() == 1 ? "" : "s"));
    }
    if (s != null) {
      for (Summary.Measurement m : s.measurements()) {
        if (m.objective() == Goal.TPS) {
          measurement(facts, m);
        }
      }
    }
    String restored = s != null && s.restored() != null ? s.restored() : "";
    if (restored.isEmpty()) {
      restored = text(session.path("restored"));
    }
    if (restored.isEmpty()) {
      restored = text(session.path("state").path("restored"));
    }
    add(facts, "restored", restored.isEmpty() ? "not yet (the session has not ended)" : restored);
    return facts;
  }

  /**
   * The pooled run noise and the window error with what they rest on, and the drift of the
   * defaults: each run of the defaults with the drift model's level at its trial.
   */
  private static void measurement(List<ReportModel.Fact> facts, Summary.Measurement m) {
    add(
        facts,
        "run-to-run noise",
        m.noiseDegreesOfFreedom() == 0
            ? "not known (no configuration ran twice)"
            : Num.f(
                "TPS ± %.1f%%, pooled from %d runs of %d configurations (%d degrees of freedom)",
                100 * m.runNoiseCv(),
                m.noiseRuns(),
                m.noiseConfigurations(),
                m.noiseDegreesOfFreedom()));
    if (m.windows() > 0) {
      add(
          facts,
          "window error",
          Num.f(
              "± %.1f%% on average (batch means of each window's seconds, %d windows)",
              100 * m.windowRelativeSe(), m.windows()));
    }
    if (!m.references().isEmpty()) {
      StringBuilder runs = new StringBuilder();
      for (Summary.DriftPoint p : m.references()) {
        runs.append(runs.length() == 0 ? "" : "; ")
            .append(
                Num.f(
                    "trial %d: %s (level %s)", p.trial(), Num.fmt(p.value()), Num.fmt(p.level())));
      }
      add(
          facts,
          "drift of the defaults",
          Num.f("%.1f%% between the lowest and highest level; ", 100 * m.driftRange()) + runs);
    }
  }

  private static void add(List<ReportModel.Fact> facts, String name, String value) {
    if (value != null && !value.isBlank()) {
      facts.add(new ReportModel.Fact(name, value));
    }
  }

  private static String machine(Summary.Machine m) {
    return Num.f("%d cores, %.1f GiB RAM", m.cores(), m.ramBytes() / (1024.0 * Num.MB))
        + (m.storage() == null || m.storage().isBlank() ? "" : ", " + m.storage())
        + (m.os() == null || m.os().isBlank() ? "" : ", " + m.os());
  }

  private static String machine(JsonNode m) {
    if (m.isObject() && m.has("cores") && m.has("ramBytes")) {
      return machine(
          new Summary.Machine(
              m.path("cores").asInt(),
              m.path("ramBytes").asLong(),
              m.path("storage").asText(""),
              m.path("os").asText("")));
    }
    return text(m);
  }

  private static String budget(SessionData data, JsonNode inputs) {
    Summary s = data.summary();
    if (s != null && s.budget() != null) {
      return Labels.budget(s.budget());
    }
    String planned = text(inputs.path("budget"));
    double seconds =
        data.trials().stream()
            .mapToDouble(t -> t.timingsSeconds().getOrDefault("total", 0.0))
            .sum();
    String used = Num.f("%d trials, %.0f minutes used", data.trials().size(), seconds / 60);
    return planned.isEmpty() ? used : used + " (planned: " + planned + ")";
  }

  private static String trialCounts(SessionData data) {
    Map<String, Integer> counts = new TreeMap<>();
    int ok = 0;
    for (TrialResult t : data.trials()) {
      if (t.isOk()) {
        ok++;
      } else {
        counts.merge(
            String.valueOf(t.status() == null ? Status.CRASHED : t.status()), 1, Integer::sum);
      }
    }
    StringBuilder sb = new StringBuilder(Num.f("%d finished: %d ok", data.trials().size(), ok));
    counts.forEach((status, n) -> sb.append(Num.f(", %d %s", n, status)));
    return sb.toString();
  }

  /** A JSON value for people: objects as key=value lists, arrays comma-separated. */
  static String text(JsonNode node) {
    if (node == null || node.isMissingNode() || node.isNull()) {
      return "";
    }
    if (node.isValueNode()) {
      return node.asText();
    }
    List<String> parts = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(n -> parts.add(text(n)));
      return String.join(", ", parts);
    }
    for (Map.Entry<String, JsonNode> e : node.properties()) {
      String v =
          e.getValue().isContainerNode() ? "(" + text(e.getValue()) + ")" : text(e.getValue());
      parts.add(e.getKey() + "=" + v);
    }
    return String.join(", ", parts);
  }
}
