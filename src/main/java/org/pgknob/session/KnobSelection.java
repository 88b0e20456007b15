package org.pgknob.session;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import org.pgknob.optimize.Bayes;
import org.pgknob.optimize.KnobSensitivity;
import org.pgknob.optimize.MainEffect;
import org.pgknob.optimize.SweepAnalysis;
import org.pgknob.runs.Track;
import org.pgknob.space.Knob;
import org.pgknob.space.SearchSpace;

/**
 * Which knobs a track's Bayesian phase searches, and why: from the sweeps' effects against the
 * measured noise and the model's main effects (see {@link Bayes#mainEffects()}) against the same
 * noise. Pure: the evidence comes in, the choice and one reason per knob go out, so that it can be
 * tested on synthetic sweeps and logged as it was made.
 *
 * <p>Order of preference: knobs with an effect beyond {@link SweepAnalysis#EFFECT_NOISE_MULTIPLE} x
 * noise in their sweep or in the model, largest multiple first; then the expert order of the
 * search-space file's {@code sweep:} ranks; then the space's order; knobs whose sweep was flatter
 * than the noise last. The reload track takes the first {@code k} reload knobs; the restart track
 * the same and the first {@code r} restart knobs. The set grows ({@link #grown}) when a later model
 * finds an effect in a knob left out; it never shrinks, so every trial already run stays inside the
 * searched space.
 */
final class KnobSelection {
  /**
   * A model's first-order Sobol index above which a knob counts as having an effect when the noise
   * is unknown (fewer than two baseline runs).
   */
  static final double INDEX_WITHOUT_NOISE = 0.1;

  /** The most knobs one growth step adds: a few at a time, so the model keeps up. */
  static final int GROWTH_PER_STEP = 3;

  /**
   * One knob's place in a track's search.
   *
   * @param knob the knob
   * @param searched whether the track searches it
   * @param sweepNoiseMultiple its sweep's range over the noise; NaN when not measured
   * @param modelNoiseMultiple its main effect's range in the model over the noise; NaN when unknown
   * @param modelIndex its first-order Sobol index in the model; NaN when no model
   * @param addedAfterTrial 0 when chosen at the start of the phase, else the trial after which the
   *     model found its effect
   * @param reason the reason in a few words
   */
  record Choice(
      String knob,
      boolean searched,
      double sweepNoiseMultiple,
      double modelNoiseMultiple,
      double modelIndex,
      int addedAfterTrial,
      String reason) {}

  /** The searched space and every knob's choice, searched knobs first in the order chosen. */
  record Result(SearchSpace space, List<Choice> choices) {
    Set<String> searched() {
      Set<String> out = new LinkedHashSet<>();
      for (Choice c : choices) {
        if (c.searched()) {
          out.add(c.knob());
        }
      }
      return out;
    }
  }

  /** The evidence about each knob: its sweep and its main effect in the model. */
  record Evidence(SweepAnalysis sweeps, List<MainEffect> model) {
    Optional<KnobSensitivity> sweep(String knob) {
      return sweeps == null ? Optional.empty() : sweeps.sensitivity(knob);
    }

    Optional<MainEffect> effect(String knob) {
      return model.stream().filter(e -> e.knob().equals(knob)).findFirst();
    }

    double noiseCv() {
      return sweeps == null ? Double.NaN : sweeps.noiseCv();
    }

    double sweepMultiple(String knob) {
      return sweep(knob)
          .filter(s -> s.verdict() != KnobSensitivity.Verdict.NOT_MEASURED)
          .map(KnobSensitivity::noiseMultiple)
          .orElse(Double.NaN);
    }

    double modelMultiple(String knob) {
      double noise = noiseCv();
      return effect(knob)
          .filter(e -> noise > 0 && Double.isFinite(e.rangeFraction()))
          .map(e -> e.rangeFraction() / noise)
          .orElse(Double.NaN);
    }

    double modelIndex(String knob) {
      return effect(knob).map(MainEffect::index).orElse(Double.NaN);
    }

    boolean sweepEffect(String knob) {
      return sweep(knob).map(s -> s.verdict() == KnobSensitivity.Verdict.EFFECT).orElse(false);
    }

    boolean sweepNoEffect(String knob) {
      return sweep(knob).map(s -> s.verdict() == KnobSensitivity.Verdict.NO_EFFECT).orElse(false);
    }

    /** The model shows an effect beyond the sweep's threshold, or a large index if no noise. */
    boolean modelEffect(String knob) {
      double multiple = modelMultiple(knob);
      if (Double.isFinite(multiple)) {
        return multiple >= SweepAnalysis.EFFECT_NOISE_MULTIPLE;
      }
      return modelIndex(knob) >= INDEX_WITHOUT_NOISE;
    }

    /** The larger of the two multiples, for ordering; the index stands in when noise is unknown. */
    double strength(String knob) {
      double s = sweepMultiple(knob);
      double m = modelMultiple(knob);
      double best = Math.max(Double.isNaN(s) ? 0 : s, Double.isNaN(m) ? 0 : m);
      if (best == 0) {
        best = Math.max(0, Double.isNaN(modelIndex(knob)) ? 0 : modelIndex(knob));
      }
      return best;
    }
  }

  private KnobSelection() {}

  /**
   * The knobs a track searches from the start of its Bayesian phase.
   *
   * @param needsRestart whether a knob needs a restart to apply
   * @param reloadKnobs how many reload knobs the track takes
   * @param restartKnobs how many restart knobs the restart track adds (0 on the reload track)
   */
  static Result initial(
      SearchSpace space,
      Predicate<String> needsRestart,
      Track track,
      int reloadKnobs,
      int restartKnobs,
      Evidence evidence) {
    List<String> order = ranked(space, evidence);
    Map<String, String> chosen = new LinkedHashMap<>();
    for (String name : order) {
      if (chosen.size() >= reloadKnobs) {
        break;
      }
      if (!needsRestart.test(name)) {
        chosen.put(name, whyChosen(space, name, evidence));
      }
    }
    if (track == Track.RESTART) {
      int added = 0;
      for (String name : order) {
        if (added >= restartKnobs) {
          break;
        }
        if (needsRestart.test(name) && !chosen.containsKey(name)) {
          chosen.put(name, whyChosen(space, name, evidence));
          added++;
        }
      }
    }
    addConditionParents(space, chosen);
    List<Choice> choices = new ArrayList<>();
    for (var e : chosen.entrySet()) {
      choices.add(choice(e.getKey(), true, 0, e.getValue(), evidence));
    }
    for (String name : order) {
      if (!chosen.containsKey(name)) {
        choices.add(
            choice(name, false, 0, whyNot(name, track, needsRestart, evidence, chosen), evidence));
      }
    }
    return new Result(space.subset(k -> chosen.containsKey(k.name())), choices);
  }

  /**
   * {@code previous} with the knobs the model now finds an effect in added (at most {@link
   * #GROWTH_PER_STEP}, largest first, none the track cannot apply, never past {@link
   * Bayes#MAX_KNOBS}); the others' reasons keep what they said.
   */
  static Result grown(
      Result previous,
      SearchSpace space,
      Predicate<String> needsRestart,
      Track track,
      Evidence evidence,
      int afterTrial) {
    Set<String> searched = previous.searched();
    List<String> candidates = new ArrayList<>();
    for (Knob k : space.knobs()) {
      String name = k.name();
      if (!searched.contains(name)
          && evidence.modelEffect(name)
          && !(track == Track.RELOAD && needsRestart.test(name))) {
        candidates.add(name);
      }
    }
    candidates.sort(Comparator.comparingDouble(evidence::strength).reversed());
    Map<String, String> added = new LinkedHashMap<>();
    for (String name : candidates) {
      if (added.size() >= GROWTH_PER_STEP || searched.size() + added.size() >= Bayes.MAX_KNOBS) {
        break;
      }
      added.put(name, "added after trial " + afterTrial + ": " + modelPhrase(name, evidence));
    }
    addConditionParents(space, added, searched);
    if (added.isEmpty()) {
      return previous;
    }
    List<Choice> choices = new ArrayList<>();
    for (Choice c : previous.choices()) {
      if (c.searched()) {
        choices.add(c);
      }
    }
    for (var e : added.entrySet()) {
      choices.add(choice(e.getKey(), true, afterTrial, e.getValue(), evidence));
    }
    for (Choice c : previous.choices()) {
      if (!c.searched() && !added.containsKey(c.knob())) {
        choices.add(c);
      }
    }
    Set<String> all = new LinkedHashSet<>(searched);
    all.addAll(added.keySet());
    return new Result(space.subset(k -> all.contains(k.name())), choices);
  }

  /** Every knob of the space, most promising first. */
  static List<String> ranked(SearchSpace space, Evidence evidence) {
    List<String> measured = new ArrayList<>();
    for (Knob k : space.knobs()) {
      if (evidence.sweepEffect(k.name()) || evidence.modelEffect(k.name())) {
        measured.add(k.name());
      }
    }
    measured.sort(Comparator.comparingDouble(evidence::strength).reversed());
    Set<String> order = new LinkedHashSet<>(measured);
    Set<String> withoutEffect = new LinkedHashSet<>();
    for (Knob k : space.knobs()) {
      // "Within noise" is no verdict on a noisy machine: only a sweep flatter than the noise
      // itself (and no effect in the model) sends a knob to the back.
      if (evidence.sweepNoEffect(k.name()) && !order.contains(k.name())) {
        withoutEffect.add(k.name());
      }
    }
    for (String name : SweepChoice.priority(space)) {
      if (space.contains(name) && !withoutEffect.contains(name)) {
        order.add(name);
      }
    }
    for (Knob k : space.knobs()) {
      if (!withoutEffect.contains(k.name())) {
        order.add(k.name());
      }
    }
    order.addAll(withoutEffect);
    return new ArrayList<>(order);
  }

  private static Choice choice(
      String knob, boolean searched, int afterTrial, String reason, Evidence evidence) {
    return new Choice(
        knob,
        searched,
        evidence.sweepMultiple(knob),
        evidence.modelMultiple(knob),
        evidence.modelIndex(knob),
        afterTrial,
        reason);
  }

  private static String whyChosen(SearchSpace space, String name, Evidence evidence) {
    boolean sweep = evidence.sweepEffect(name);
    boolean model = evidence.modelEffect(name);
    if (sweep && model) {
      return "sweep " + sweepPhrase(name, evidence) + "; model " + modelPhrase(name, evidence);
    }
    if (sweep) {
      return "sweep " + sweepPhrase(name, evidence);
    }
    if (model) {
      return "model " + modelPhrase(name, evidence);
    }
    if (space.contains(name) && space.knob(name).sweepRank() > 0) {
      return "expert order (no effect measured beyond noise yet)";
    }
    return "room left in the track's knobs (no effect measured)";
  }

  private static String whyNot(
      String name,
      Track track,
      Predicate<String> needsRestart,
      Evidence evidence,
      Map<String, String> chosen) {
    if (track == Track.RELOAD && needsRestart.test(name)) {
      return "needs a restart (reload track)";
    }
    if (evidence.sweepNoEffect(name) && !evidence.modelEffect(name)) {
      return "sweep: no effect (range under the noise)";
    }
    return "ranked after the " + chosen.size() + " knobs searched";
  }

  private static String sweepPhrase(String name, Evidence evidence) {
    return evidence.sweep(name).map(KnobSensitivity::summary).orElse("not swept");
  }

  private static String modelPhrase(String name, Evidence evidence) {
    Optional<MainEffect> e = evidence.effect(name);
    if (e.isEmpty()) {
      return "no model";
    }
    double multiple = evidence.modelMultiple(name);
    return String.format(
        Locale.ROOT,
        "main effect %.1f%%%s, Sobol index %.2f",
        100 * e.get().rangeFraction(),
        Double.isFinite(multiple) ? String.format(Locale.ROOT, " (%.1f x noise)", multiple) : "",
        e.get().index());
  }

  /** A conditional knob brings the knob it depends on, or it would be searched blind. */
  private static void addConditionParents(SearchSpace space, Map<String, String> chosen) {
    addConditionParents(space, chosen, Set.of());
  }

  private static void addConditionParents(
      SearchSpace space, Map<String, String> chosen, Set<String> already) {
    for (String name : List.copyOf(chosen.keySet())) {
      Knob k = space.knob(name);
      if (k.condition() != null
          && space.contains(k.condition().knob())
          && !already.contains(k.condition().knob())) {
        chosen.putIfAbsent(k.condition().knob(), "activates " + name);
      }
    }
  }
}
