package org.pgknob.runs;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * {@code runs/<id>/summary.json}: everything the console shows at the end of a session, for
 * automation and for the report. The session writes it (also while running, after each phase); the
 * report reads it. Missing parts are null or empty while a session is unfinished.
 *
 * @param sessionId the run folder's name
 * @param state running, finished, stopped (Ctrl-C), failed
 * @param startedAt when the session began
 * @param finishedAt when it ended, or null
 * @param machine the host the server runs on
 * @param postgresVersion server_version of the target
 * @param target the target's description (never a password)
 * @param workload workload name and parameters, e.g. {name: tprocc, warehouses: 1, vus: 4}
 * @param budget what was planned and used
 * @param noise the baseline's spread: the noise level every decision uses
 * @param results defaults, PGTune-style and the four optima (track x objective), validated
 * @param sweepRanking knobs by the effect their sweep showed
 * @param modelRanking knobs by the fitted model's importance
 * @param restored what was put back on the server at the end
 * @param disturbedTrials trials during whose window other processes used more than an eighth of the
 *     host's cores ({@code ResourceSummary#disturbedByOtherProcesses}); left out of the JSON when
 *     none, and absent from summaries written before pgknob measured it
 * @param repeatedTrials trials that ran their window again once the host was quiet, after other
 *     processes disturbed the first (trials.jsonl keeps what it measured as {@code
 *     disturbedWindow}); left out of the JSON when none, and absent from summaries written before
 *     pgknob repeated windows
 * @param measurements per objective (tps, latency): pooled run noise, window errors and drift;
 *     absent from summaries written before pgknob measured them
 * @param verdict what to do now, decided by the session from the validated rows (or why it
 *     stopped); absent from summaries written before pgknob gave one
 * @param knobSelection per track, every knob's place in its Bayesian search (searched or not, from
 *     the start or added later) and why; absent from summaries written before pgknob chose knobs
 *     from the model
 */
public record Summary(
    String sessionId,
    String state,
    Instant startedAt,
    Instant finishedAt,
    Machine machine,
    String postgresVersion,
    String target,
    Map<String, Object> workload,
    Budget budget,
    Noise noise,
    List<ResultRow> results,
    List<KnobImportance> sweepRanking,
    List<KnobImportance> modelRanking,
    String restored,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Integer> disturbedTrials,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Integer> repeatedTrials,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Measurement> measurements,
    @JsonInclude(JsonInclude.Include.NON_NULL) Verdict verdict,
    @JsonInclude(JsonInclude.Include.NON_EMPTY) List<KnobChoice> knobSelection) {
  public Summary {
    disturbedTrials = disturbedTrials == null ? List.of() : List.copyOf(disturbedTrials);
    repeatedTrials = repeatedTrials == null ? List.of() : List.copyOf(repeatedTrials);
    measurements = measurements == null ? List.of() : List.copyOf(measurements);
    knobSelection = knobSelection == null ? List.of() : List.copyOf(knobSelection);
  }

  /** This summary with {@code newVerdict} in place of its own. */
  public Summary withVerdict(Verdict newVerdict) {
    return new Summary(
        sessionId,
        state,
        startedAt,
        finishedAt,
        machine,
        postgresVersion,
        target,
        workload,
        budget,
        noise,
        results,
        sweepRanking,
        modelRanking,
        restored,
        disturbedTrials,
        repeatedTrials,
        measurements,
        newVerdict,
        knobSelection);
  }

  /**
   * What a DBA should do after the session, first in the console, the report and summary.json. The
   * session decides it ({@code org.pgknob.session.Verdict}); this is its recorded form.
   *
   * @param kind apply, pgtune, nothing, stopped, failed
   * @param headline one sentence: "Apply best-restart-tps.conf: 1.18x TPS (1.09 to 1.27) ..."
   * @param details the evidence, one line each
   * @param next the next steps, each a command to run as written and why
   * @param file the export to apply (kind apply or pgtune), else null
   * @param restart whether applying it needs a server restart
   * @param againstDefaults the applied configuration's ratio to the defaults, else null
   * @param againstPgTune the pick's ratio to the PGTune-style configuration measured in the same
   *     rounds, else null (not validated, or the verdict is about PGTune-style itself)
   */
  public record Verdict(
      String kind,
      String headline,
      List<String> details,
      List<NextStep> next,
      @JsonInclude(JsonInclude.Include.NON_NULL) String file,
      boolean restart,
      @JsonInclude(JsonInclude.Include.NON_NULL) Ratio againstDefaults,
      @JsonInclude(JsonInclude.Include.NON_NULL) Ratio againstPgTune) {
    public Verdict {
      details = details == null ? List.of() : List.copyOf(details);
      next = next == null ? List.of() : List.copyOf(next);
    }
  }

  /** A command to run as written ("./pgknob resume runs/ID") and what it is for. */
  public record NextStep(String command, String why) {}

  /**
   * One knob's place in one track's Bayesian search.
   *
   * @param track reload or restart
   * @param knob the knob
   * @param searched whether the track searched it
   * @param sweepNoiseMultiple its sweep's range over the noise (null when not swept)
   * @param modelNoiseMultiple its main effect in the model over the noise (null when unknown)
   * @param modelIndex its first-order Sobol index in the model (null when no model)
   * @param addedAfterTrial 0 when chosen at the start, else the trial after which it was added
   * @param reason why, in a few words
   */
  public record KnobChoice(
      Track track,
      String knob,
      boolean searched,
      Double sweepNoiseMultiple,
      Double modelNoiseMultiple,
      Double modelIndex,
      int addedAfterTrial,
      String reason) {}

  /**
   * How trustworthy one objective's measurements were.
   *
   * @param objective tps or latency
   * @param runNoiseCv run-to-run coefficient of variation pooled over every repeated configuration
   * @param noiseDegreesOfFreedom runs minus configurations behind it (0: not known)
   * @param noiseRuns runs it was pooled from
   * @param noiseConfigurations repeated configurations those runs belong to
   * @param windowRelativeSe mean of the windows' own standard errors over their means (batch means
   *     of each window's per-second timeline; 0 when no timeline)
   * @param windows how many windows had a timeline to give one
   * @param driftRange how far the defaults' smoothed level moved: highest over lowest, minus 1
   * @param references every run of the defaults, with the interpolated level at its trial
   */
  public record Measurement(
      Goal objective,
      double runNoiseCv,
      int noiseDegreesOfFreedom,
      int noiseRuns,
      int noiseConfigurations,
      double windowRelativeSe,
      int windows,
      double driftRange,
      List<DriftPoint> references) {
    public Measurement {
      references = references == null ? List.of() : List.copyOf(references);
    }
  }

  /** A run of the reference configuration (the defaults) and the drift model's level there. */
  public record DriftPoint(int trial, double value, double level) {}

  /** The host: cores, RAM (the least of MemTotal, cgroup limit and --ram), storage. */
  public record Machine(int cores, long ramBytes, String storage, String os) {}

  /** Trials and seconds planned and used. */
  public record Budget(
      int trialsPlanned, int trialsRun, double secondsPlanned, double secondsUsed) {}

  /** Spread of the repeated baseline trials. */
  public record Noise(
      int runs, double tpsMean, double tpsCv, double latencyMeanMs, double latencyCv) {}

  /**
   * A ratio to the baseline with its 95% interval, from interleaved pairs (A B A B ...).
   *
   * @param estimate geometric mean of the paired ratios
   * @param low lower end of the 95% interval
   * @param high upper end
   * @param pairs number of pairs measured
   */
  public record Ratio(double estimate, double low, double high, int pairs) {
    /** A gain (or loss) is claimed only when the interval excludes 1. */
    public boolean excludesOne() {
      return low > 1 || high < 1;
    }

    /**
     * The claim rule: a gain when the interval lies wholly on the better side of 1 (below it when
     * {@code lowerIsBetter}) and the estimated gain is at least {@code detectableGain}, the
     * smallest gain its validation could tell from noise. Anything less is noise.
     */
    public boolean claimsGain(boolean lowerIsBetter, double detectableGain) {
      if (!(lowerIsBetter ? high < 1 : low > 1)) {
        return false;
      }
      return (lowerIsBetter ? 1 / estimate - 1 : estimate - 1) >= detectableGain;
    }
  }

  /**
   * One row of the results table.
   *
   * @param name defaults, pgtune, reload/tps, reload/latency, restart/tps, restart/latency
   * @param track reload, restart, or null (written "") for defaults and pgtune
   * @param objective tps, latency, or null (written "")
   * @param settings the settings that differ from the defaults, as PostgreSQL takes them
   * @param tps mean TPS over the validation runs of this configuration, counting the CHECKPOINT
   *     after each window in its time (what the optimizer and the ratios use: a configuration that
   *     defers its writes pays for them)
   * @param nopm mean NOPM; null (and absent from summary.json) for a workload without NOPM
   * @param latencyAvgMs mean of the average latency
   * @param latencyP95Ms mean of the p95 latency
   * @param tpsRatio TPS against the baseline (null for the defaults row)
   * @param latencyRatio average latency against the baseline (below 1 is better)
   * @param trials the trial numbers behind the row
   * @param verdict one line for people: "1.21x TPS (1.12 to 1.31), gain", "within noise", ...
   * @param tpsRatioToPgtune a validated pick's TPS against the PGTune-style row's, from the runs of
   *     the same validation rounds (null when either was not validated)
   * @param detectableGain the smallest gain the row's validation could tell from noise (a fraction:
   *     0.06 for 6%; 0 when not validated): a gain is claimed only when its interval excludes 1 and
   *     its estimate is at least this ({@link #claimsGain})
   * @param windowTps mean TPS of the measured windows alone, as the per-second timelines and the
   *     noise line count it (0, and absent, in summaries written before pgknob recorded it)
   * @param simplified for a pick, the settings of the search's best left at their defaults before
   *     validation because the evidence does not support them; null (absent) when none was
   * @param diskWarning for a configuration measured as given (PGTune-style), why the WAL it lets
   *     the server keep does not fit the session's disk limit, which every proposal of the
   *     session's own met; null (absent) when it fits or the disk was not known
   */
  public record ResultRow(
      String name,
      @JsonSerialize(nullsUsing = EmptyText.class) Track track,
      @JsonSerialize(nullsUsing = EmptyText.class) Goal objective,
      Map<String, String> settings,
      double tps,
      @JsonInclude(JsonInclude.Include.NON_NULL) Double nopm,
      double latencyAvgMs,
      double latencyP95Ms,
      Ratio tpsRatio,
      Ratio latencyRatio,
      List<Integer> trials,
      String verdict,
      @JsonInclude(JsonInclude.Include.NON_NULL) Ratio tpsRatioToPgtune,
      @JsonInclude(JsonInclude.Include.NON_DEFAULT) double detectableGain,
      @JsonInclude(JsonInclude.Include.NON_DEFAULT) double windowTps,
      @JsonInclude(JsonInclude.Include.NON_NULL) Simplified simplified,
      @JsonInclude(JsonInclude.Include.NON_NULL) String diskWarning) {
    /** A row whose WAL fits its disk (or whose disk is unknown). */
    public ResultRow(
        String name,
        Track track,
        Goal objective,
        Map<String, String> settings,
        double tps,
        Double nopm,
        double latencyAvgMs,
        double latencyP95Ms,
        Ratio tpsRatio,
        Ratio latencyRatio,
        List<Integer> trials,
        String verdict,
        Ratio tpsRatioToPgtune,
        double detectableGain,
        double windowTps,
        Simplified simplified) {
      this(
          name,
          track,
          objective,
          settings,
          tps,
          nopm,
          latencyAvgMs,
          latencyP95Ms,
          tpsRatio,
          latencyRatio,
          trials,
          verdict,
          tpsRatioToPgtune,
          detectableGain,
          windowTps,
          simplified,
          null);
    }

    /** This row with {@code newVerdict} in place of its own. */
    public ResultRow withVerdict(String newVerdict) {
      return withJudgement(newVerdict, tpsRatioToPgtune, detectableGain);
    }

    /** This row with its validation's ratio to PGTune-style and its detectable gain. */
    public ResultRow withValidation(Ratio newTpsRatioToPgtune, double newDetectableGain) {
      return withJudgement(verdict, newTpsRatioToPgtune, newDetectableGain);
    }

    /** The measured figures as they are, with what the validation concluded from them. */
    private ResultRow withJudgement(
        String newVerdict, Ratio newTpsRatioToPgtune, double newDetectableGain) {
      return copy(newVerdict, newTpsRatioToPgtune, newDetectableGain, simplified, diskWarning);
    }

    /** This row with the simplification its pick went through. */
    public ResultRow withSimplified(Simplified newSimplified) {
      return copy(verdict, tpsRatioToPgtune, detectableGain, newSimplified, diskWarning);
    }

    /** This row with what its WAL would do to the session's disk (null: it fits). */
    public ResultRow withDiskWarning(String newDiskWarning) {
      return copy(verdict, tpsRatioToPgtune, detectableGain, simplified, newDiskWarning);
    }

    /** The measured figures as they are; what was concluded about them replaced. */
    private ResultRow copy(
        String newVerdict,
        Ratio newTpsRatioToPgtune,
        double newDetectableGain,
        Simplified newSimplified,
        String newDiskWarning) {
      return new ResultRow(
          name,
          track,
          objective,
          settings,
          tps,
          nopm,
          latencyAvgMs,
          latencyP95Ms,
          tpsRatio,
          latencyRatio,
          trials,
          newVerdict,
          newTpsRatioToPgtune,
          newDetectableGain,
          windowTps,
          newSimplified,
          newDiskWarning);
    }

    /** The settings of the search's best: these and those left at their defaults. */
    public Map<String, String> searchSettings() {
      if (simplified == null) {
        return settings;
      }
      Map<String, String> out = new java.util.TreeMap<>(settings);
      out.putAll(simplified.leftAtDefaults());
      return out;
    }

    /**
     * True when this row may be called a gain on {@code objective} (tps or latency): its 95%
     * interval lies wholly on the better side of 1 and the estimated gain is at least {@link
     * #detectableGain}, the smallest gain its validation could detect. Anything less is noise.
     */
    public boolean claimsGain(Goal objective) {
      boolean latency = objective.lowerIsBetter();
      Ratio r = latency ? latencyRatio : tpsRatio;
      return r != null && r.claimsGain(latency, detectableGain);
    }
  }

  /**
   * What a pick's simplification left at the defaults (issue 16: a search's best carries settings
   * that did nothing measurable).
   *
   * @param leftAtDefaults the settings of the search's best left out, with their values there
   * @param predictedLoss the model's predicted loss of leaving them all out, a fraction of the
   *     objective (0.004: 0.4% worse; negative: the model predicts a gain)
   * @param lossUpperBound that loss at 2 posterior standard deviations
   * @param note the sentence the console printed when validation started
   */
  public record Simplified(
      Map<String, String> leftAtDefaults,
      double predictedLoss,
      double lossUpperBound,
      String note) {
    public Simplified {
      leftAtDefaults = Map.copyOf(leftAtDefaults);
    }
  }

  /**
   * A knob's importance.
   *
   * @param knob setting name
   * @param importance share or effect size, larger is more important
   * @param verdict e.g. "+18% TPS, 6x the noise", "within noise", "no effect"
   */
  public record KnobImportance(String knob, double importance, String verdict) {}

  /** Writes a row's missing track or objective as "", the shape summary.json has always had. */
  static final class EmptyText extends JsonSerializer<Object> {
    @Override
    public void serialize(Object value, JsonGenerator out, SerializerProvider serializers)
        throws IOException {
      out.writeString("");
    }
  }
}
