package org.pgknob.optimize;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.pgknob.measure.LoneDrop;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.SearchSpace;

/**
 * One-at-a-time sweep results: a curve per knob and a ranking of the knobs by effect, each effect
 * compared with the noise level so that "no effect" and "within noise" are said plainly.
 *
 * <p>An observation belongs to knob K's curve when it differs from the baseline in K alone (or in K
 * and the parent value that activates K). Knobs that only became active at their default do not
 * count as differences. Works from any list of observations, so a resumed session can rebuild it.
 */
public record SweepAnalysis(
    double baselineMean,
    int baselineRuns,
    double noiseCv,
    List<KnobCurve> curves,
    List<KnobSensitivity> ranking) {

  /**
   * Range of a curve, in multiples of the noise, above which a knob is said to have an effect. The
   * range of six noisy points with no real effect is about 2.5 noise standard deviations, so 3
   * keeps pure noise out.
   */
  public static final double EFFECT_NOISE_MULTIPLE = 3.0;

  public SweepAnalysis {
    curves = List.copyOf(curves);
    ranking = List.copyOf(ranking);
  }

  /** The ranking entry of a knob, if it was swept. */
  public Optional<KnobSensitivity> sensitivity(String knob) {
    return ranking.stream().filter(s -> s.knob().equals(knob)).findFirst();
  }

  public Optional<KnobCurve> curve(String knob) {
    return curves.stream().filter(c -> c.knob().equals(knob)).findFirst();
  }

  /**
   * @param noiseCv noise as a coefficient of variation (sd / mean) of the objective; NaN to measure
   *     it from repeated baseline runs (unknown if there are fewer than two)
   */
  public static SweepAnalysis of(
      SearchSpace space, Objective objective, List<Observation> observations, double noiseCv) {
    Configuration baseline = History.effective(space, Configuration.empty());
    List<Outcome> baselineRuns = new ArrayList<>();
    Map<String, Map<Object, Accumulator>> byKnob = new LinkedHashMap<>();
    for (Observation o : observations) {
      Configuration eff = History.effective(space, o.configuration());
      Set<String> diff = differences(space, baseline, eff);
      if (diff.isEmpty()) {
        baselineRuns.add(o.outcome());
        continue;
      }
      String knob = owner(space, diff);
      if (knob == null) {
        continue; // a joint configuration, not a sweep point
      }
      byKnob
          .computeIfAbsent(knob, k -> new LinkedHashMap<>())
          .computeIfAbsent(eff.get(knob), v -> new Accumulator())
          .add(o.outcome(), objective);
    }
    Accumulator base = baseline(baselineRuns, objective);
    double noise = Double.isNaN(noiseCv) ? base.coefficientOfVariation() : noiseCv;
    List<KnobCurve> curves = new ArrayList<>();
    List<KnobSensitivity> ranking = new ArrayList<>();
    for (var e : byKnob.entrySet()) {
      Knob knob = space.knob(e.getKey());
      Map<Object, Accumulator> points = new LinkedHashMap<>(e.getValue());
      if (knob.defaultValue() != null) {
        Accumulator reference = reference(space, knob, baseline, base, byKnob);
        if (reference != null) {
          points.merge(knob.defaultValue(), reference, Accumulator::merged);
        }
      }
      KnobCurve curve = curve(knob, points);
      curves.add(curve);
      ranking.add(sensitivity(knob, curve, objective, noise));
    }
    ranking.sort(
        Comparator.comparing(
                (KnobSensitivity s) -> s.verdict() == KnobSensitivity.Verdict.NOT_MEASURED)
            .thenComparing(Comparator.comparingDouble(KnobSensitivity::rangeFraction).reversed()));
    return new SweepAnalysis(base.mean(), base.runs, noise, curves, ranking);
  }

  /**
   * The runs that measured the knob's default: the baseline, or for a knob inactive there, the
   * parent's sweep point that activates it.
   */
  private static Accumulator reference(
      SearchSpace space,
      Knob knob,
      Configuration baseline,
      Accumulator base,
      Map<String, Map<Object, Accumulator>> byKnob) {
    if (space.isActive(knob.name(), baseline)) {
      return base;
    }
    var parentPoints = byKnob.getOrDefault(knob.condition().knob(), Map.of());
    for (String value : knob.condition().values()) {
      if (parentPoints.containsKey(value)) {
        return parentPoints.get(value);
      }
    }
    return null;
  }

  private static Set<String> differences(
      SearchSpace space, Configuration baseline, Configuration config) {
    Set<String> diff = new HashSet<>();
    for (String name : space.names()) {
      Object a = baseline.get(name);
      Object b = config.get(name);
      if (a == null && b != null && b.equals(space.knob(name).defaultValue())) {
        continue; // only became active, at its default
      }
      if (a == null ? b != null : !a.equals(b)) {
        diff.add(name);
      }
    }
    return diff;
  }

  /** The knob a one-at-a-time point sweeps: the single difference, or the child of a pair. */
  private static String owner(SearchSpace space, Set<String> diff) {
    if (diff.size() == 1) {
      return diff.iterator().next();
    }
    if (diff.size() == 2) {
      for (String name : diff) {
        var cond = space.knob(name).condition();
        if (cond != null && diff.contains(cond.knob())) {
          return name;
        }
      }
    }
    return null;
  }

  private static KnobCurve curve(Knob knob, Map<Object, Accumulator> points) {
    List<KnobCurve.Point> out = new ArrayList<>();
    points.forEach(
        (value, acc) ->
            out.add(
                new KnobCurve.Point(
                    value,
                    value.equals(knob.defaultValue()),
                    acc.mean(),
                    acc.runs,
                    acc.failures,
                    acc.lastReason)));
    if (knob.isNumeric()) {
      out.sort(Comparator.comparingDouble(p -> ((Number) p.value()).doubleValue()));
    } else {
      out.sort(Comparator.comparingInt(p -> knob.choices().indexOf(p.value().toString())));
    }
    return new KnobCurve(knob.name(), out);
  }

  private static KnobSensitivity sensitivity(
      Knob knob, KnobCurve curve, Objective objective, double noise) {
    List<KnobCurve.Point> measured = curve.points().stream().filter(p -> p.runs() > 0).toList();
    int failed = (int) curve.points().stream().filter(p -> p.runs() == 0).count();
    String failedNote =
        failed == 0 ? "" : "; " + failed + (failed == 1 ? " value" : " values") + " failed";
    if (measured.size() < 2) {
      return new KnobSensitivity(
          knob.name(),
          KnobSensitivity.Verdict.NOT_MEASURED,
          0,
          Double.NaN,
          null,
          0,
          (measured.isEmpty() ? "not measured" : "only one value measured") + failedNote);
    }
    KnobCurve.Point reference =
        measured.stream().filter(KnobCurve.Point::isDefault).findFirst().orElse(measured.get(0));
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    KnobCurve.Point best = reference;
    for (KnobCurve.Point p : measured) {
      lo = Math.min(lo, p.meanValue());
      hi = Math.max(hi, p.meanValue());
      if (objective.direction().better(p.meanValue(), best.meanValue())) {
        best = p;
      }
    }
    double scale = Math.abs(reference.meanValue());
    double range = scale > 0 ? (hi - lo) / scale : (hi > lo ? Double.POSITIVE_INFINITY : 0);
    double change = scale > 0 ? (best.meanValue() - reference.meanValue()) / scale : 0;
    boolean noiseKnown = noise > 0 && Double.isFinite(noise);
    double multiple = noiseKnown ? range / noise : Double.NaN;
    KnobSensitivity.Verdict verdict;
    String summary;
    // A reference mean of 0 (an objective command's loss at its optimum) has no percentages:
    // the text then gives the objective's own units.
    String rangeText = scale > 0 ? percent(range) : absolute(hi - lo, false);
    if (range == 0 || (noiseKnown && multiple < 1)) {
      verdict = KnobSensitivity.Verdict.NO_EFFECT;
      summary = "no effect (range " + rangeText + noiseNote(multiple) + ")";
    } else if (noiseKnown && multiple < EFFECT_NOISE_MULTIPLE) {
      verdict = KnobSensitivity.Verdict.WITHIN_NOISE;
      summary = "within noise (range " + rangeText + noiseNote(multiple) + ")";
    } else {
      verdict = KnobSensitivity.Verdict.EFFECT;
      summary =
          best == reference
              ? "default is best; others up to " + rangeText + " away (" + noiseText(multiple) + ")"
              : (scale > 0
                      ? signedPercent(change)
                      : absolute(best.meanValue() - reference.meanValue(), true))
                  + " at "
                  + knob.render(best.value())
                  + "; range "
                  + rangeText
                  + " ("
                  + noiseText(multiple)
                  + ")";
    }
    return new KnobSensitivity(
        knob.name(), verdict, range, multiple, best.value(), change, summary + failedNote);
  }

  private static String noiseNote(double multiple) {
    return Double.isNaN(multiple) ? "" : ", " + noiseText(multiple);
  }

  private static String noiseText(double multiple) {
    return Double.isNaN(multiple)
        ? "noise unknown"
        : String.format(Locale.ROOT, "%.1f x noise", multiple);
  }

  private static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
  }

  /** A difference in the objective's own units, 4 significant digits: 4, +0.1250, -3.500e+06. */
  private static String absolute(double difference, boolean signed) {
    return String.format(Locale.ROOT, signed ? "%+.4g" : "%.4g", difference);
  }

  private static String signedPercent(double fraction) {
    return String.format(Locale.ROOT, "%+.1f%%", 100 * fraction);
  }

  /**
   * The baseline's runs, without a lone drop ({@link LoneDrop}) when there are three or more: the
   * one run far below the others' median. Why: the baseline is every knob's reference point and its
   * runs' spread is the noise the sweeps are judged by, so one run that lost 30% to something of
   * its own (three baselines of 1082, 1055 and 692 TPS in a noise-bench session) lowered the
   * reference and tripled the noise: a shared_buffers curve worth +24% then read "within noise (1.7
   * x noise)", and the restart track lost its best anchor. With two runs a drop cannot be told from
   * the other run's luck, so both stay.
   */
  private static Accumulator baseline(List<Outcome> runs, Objective objective) {
    List<Outcome> measured = new ArrayList<>();
    for (Outcome o : runs) {
      if (o.value(objective.metric()).isPresent()) {
        measured.add(o);
      }
    }
    Outcome drop = null;
    if (measured.size() >= 3) {
      double[] values =
          measured.stream().mapToDouble(o -> o.value(objective.metric()).getAsDouble()).toArray();
      int out =
          Arrays.stream(values).allMatch(v -> v > 0)
              ? LoneDrop.of(values, objective.direction() == Direction.MAXIMIZE)
              : -1;
      drop = out < 0 ? null : measured.get(out);
    }
    Accumulator base = new Accumulator();
    for (Outcome o : runs) {
      if (o != drop) {
        base.add(o, objective);
      }
    }
    return base;
  }

  /** Running sums of one point's outcomes. */
  private static final class Accumulator {
    double sum;
    double sumSquares;
    int runs;
    int failures;
    String lastReason = "";

    void add(Outcome outcome, Objective objective) {
      var v = outcome.value(objective.metric());
      if (v.isPresent()) {
        sum += v.getAsDouble();
        sumSquares += v.getAsDouble() * v.getAsDouble();
        runs++;
      } else {
        failures++;
        lastReason = outcome.reason();
      }
    }

    double mean() {
      return runs == 0 ? Double.NaN : sum / runs;
    }

    /** Sample sd over |mean|; NaN with fewer than two runs. */
    double coefficientOfVariation() {
      if (runs < 2 || mean() == 0) {
        return Double.NaN;
      }
      double var = Math.max(0, (sumSquares - runs * mean() * mean()) / (runs - 1));
      return Math.sqrt(var) / Math.abs(mean());
    }

    Accumulator merged(Accumulator other) {
      Accumulator m = new Accumulator();
      m.sum = sum + other.sum;
      m.sumSquares = sumSquares + other.sumSquares;
      m.runs = runs + other.runs;
      m.failures = failures + other.failures;
      m.lastReason = other.lastReason.isEmpty() ? lastReason : other.lastReason;
      return m;
    }
  }
}
