package org.pgknob.space;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.pgknob.PgknobException;

/**
 * The knobs a session may change, in a fixed order (the file's), with their ranges and defaults.
 * Immutable; {@link #subset} gives the space of one track.
 */
public final class SearchSpace {
  private final String source;
  private final Map<String, Knob> knobs;

  public SearchSpace(String source, List<Knob> knobs) {
    this.source = source;
    Map<String, Knob> byName = new LinkedHashMap<>();
    for (Knob k : knobs) {
      if (byName.put(k.name(), k) != null) {
        throw new PgknobException(source + ": knob " + k.name() + " appears twice", "keep one");
      }
    }
    this.knobs = java.util.Collections.unmodifiableMap(byName);
  }

  /** Where the space came from (a file path), for messages. */
  public String source() {
    return source;
  }

  public List<Knob> knobs() {
    return List.copyOf(knobs.values());
  }

  public List<String> names() {
    return List.copyOf(knobs.keySet());
  }

  public int size() {
    return knobs.size();
  }

  public boolean contains(String name) {
    return knobs.containsKey(name);
  }

  public Knob knob(String name) {
    Knob k = knobs.get(name);
    if (k == null) {
      throw new PgknobException(
          source + ": no knob named " + name, "the space has " + String.join(", ", names()));
    }
    return k;
  }

  /** The knobs that {@code keep} accepts, in the same order. */
  public SearchSpace subset(Predicate<Knob> keep) {
    List<Knob> kept = new ArrayList<>();
    for (Knob k : knobs.values()) {
      if (keep.test(k)) {
        kept.add(k);
      }
    }
    return new SearchSpace(source, kept);
  }

  public SearchSpace subset(Collection<String> names) {
    return subset(k -> names.contains(k.name()));
  }

  /** This space with one knob replaced (same name). */
  public SearchSpace with(Knob replacement) {
    List<Knob> out = new ArrayList<>();
    for (Knob k : knobs.values()) {
      out.add(k.name().equals(replacement.name()) ? replacement : k);
    }
    return new SearchSpace(source, out);
  }

  /** True when the knob's condition (if any) holds in {@code config}. */
  public boolean isActive(String name, Configuration config) {
    Knob k = knob(name);
    return k.condition() == null
        || !contains(k.condition().knob())
        || k.condition().holds(config, this);
  }

  /**
   * True when every value is known here, of its knob's type, in range, and every set knob is
   * active. Used by tests and as a last check before a configuration leaves the optimizer.
   */
  public boolean admits(Configuration config) {
    for (var e : config.values().entrySet()) {
      if (!contains(e.getKey()) || !knob(e.getKey()).admits(e.getValue())) {
        return false;
      }
      if (!isActive(e.getKey(), config)) {
        return false;
      }
    }
    return true;
  }

  /** The configuration with inactive knobs removed. */
  public Configuration dropInactive(Configuration config) {
    List<String> inactive = new ArrayList<>();
    for (String name : config.values().keySet()) {
      if (contains(name) && !isActive(name, config)) {
        inactive.add(name);
      }
    }
    return inactive.isEmpty() ? config : config.without(inactive);
  }

  @Override
  public String toString() {
    return "SearchSpace" + names() + " from " + source;
  }
}
