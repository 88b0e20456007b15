package org.pgknob.optimize;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pgknob.space.Configuration;
import org.pgknob.space.SearchSpace;

/**
 * The observations an optimizer has been told, in order, and the set of configurations they cover
 * (compared in their {@linkplain #effective effective} form, so {@code {}} and {@code {jit: on}}
 * are the same trial when on is jit's default).
 */
public final class History {
  private final SearchSpace space;
  private final List<Observation> observations = new ArrayList<>();
  private final Set<Configuration> seen = new HashSet<>();

  public History(SearchSpace space) {
    this.space = space;
  }

  public void add(Configuration configuration, Outcome outcome) {
    observations.add(new Observation(configuration, outcome));
    seen.add(effective(space, configuration));
  }

  public List<Observation> all() {
    return List.copyOf(observations);
  }

  public int size() {
    return observations.size();
  }

  /** True when a configuration with the same effective settings was observed. */
  public boolean contains(Configuration configuration) {
    return seen.contains(effective(space, configuration));
  }

  /** The observations whose outcome carries the objective's metric. */
  public List<Observation> withValue(Objective objective) {
    List<Observation> out = new ArrayList<>();
    for (Observation o : observations) {
      if (o.outcome().value(objective.metric()).isPresent()) {
        out.add(o);
      }
    }
    return out;
  }

  /** The observations that did not give the objective's metric (failures of any kind). */
  public List<Observation> withoutValue(Objective objective) {
    List<Observation> out = new ArrayList<>();
    for (Observation o : observations) {
      if (o.outcome().value(objective.metric()).isEmpty()) {
        out.add(o);
      }
    }
    return out;
  }

  /** The configuration with the best mean observed value (repeats averaged), if any succeeded. */
  public java.util.Optional<Incumbent> bestObserved(Objective objective) {
    Map<Configuration, double[]> sums = new LinkedHashMap<>();
    Map<Configuration, Configuration> firstSeen = new LinkedHashMap<>();
    for (Observation o : withValue(objective)) {
      Configuration key = effective(space, o.configuration());
      double[] s = sums.computeIfAbsent(key, k -> new double[2]);
      s[0] += o.outcome().value(objective.metric()).getAsDouble();
      s[1]++;
      firstSeen.putIfAbsent(key, o.configuration());
    }
    Incumbent best = null;
    for (var e : sums.entrySet()) {
      double mean = e.getValue()[0] / e.getValue()[1];
      if (best == null || objective.direction().better(mean, best.observedMean())) {
        best = new Incumbent(firstSeen.get(e.getKey()), mean, mean, (int) e.getValue()[1]);
      }
    }
    return java.util.Optional.ofNullable(best);
  }

  /**
   * The configuration with every active knob set: absent knobs at their defaults (where known),
   * inactive knobs dropped. Two configurations that run the same settings have the same effective
   * form.
   */
  public static Configuration effective(SearchSpace space, Configuration configuration) {
    Configuration out = configuration;
    for (var k : space.knobs()) {
      if (!out.has(k.name()) && k.defaultValue() != null) {
        out = out.with(k.name(), k.defaultValue());
      }
    }
    return space.dropInactive(out);
  }
}
