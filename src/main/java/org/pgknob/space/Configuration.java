package org.pgknob.space;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An immutable assignment of values to some knobs. A knob that is absent keeps the server's
 * default, so the empty configuration is the baseline.
 *
 * <p>Values are {@link Long} (integer knobs), {@link Double} (real knobs) or {@link String} (enum
 * and bool knobs), in the knob's unit. Equality is by content, so configurations can be compared to
 * find duplicates.
 */
public final class Configuration {
  private static final Configuration EMPTY = new Configuration(Map.of());
  private final Map<String, Object> values;

  private Configuration(Map<String, ?> values) {
    this.values = Collections.unmodifiableMap(new TreeMap<String, Object>(values));
  }

  public static Configuration empty() {
    return EMPTY;
  }

  public static Configuration of(Map<String, ?> values) {
    return new Configuration(values);
  }

  /** A copy with the values normalized to each knob's type; unknown knobs are an error. */
  public static Configuration normalized(Map<String, ?> values, SearchSpace space) {
    Map<String, Object> out = new LinkedHashMap<>();
    values.forEach((name, value) -> out.put(name, space.knob(name).normalize(value)));
    return new Configuration(out);
  }

  public Map<String, Object> values() {
    return values;
  }

  public boolean isEmpty() {
    return values.isEmpty();
  }

  public boolean has(String knob) {
    return values.containsKey(knob);
  }

  public Object get(String knob) {
    return values.get(knob);
  }

  /** The value set here, else the knob's default in {@code space}. */
  public Object valueOrDefault(String knob, SearchSpace space) {
    Object v = values.get(knob);
    return v != null ? v : space.knob(knob).defaultValue();
  }

  public Configuration with(String knob, Object value) {
    Map<String, Object> copy = new LinkedHashMap<>(values);
    copy.put(knob, value);
    return new Configuration(copy);
  }

  public Configuration without(String knob) {
    return without(List.of(knob));
  }

  /** This configuration without the given knobs' values, in one copy. */
  public Configuration without(Collection<String> knobs) {
    Map<String, Object> copy = new TreeMap<>(values);
    copy.keySet().removeAll(knobs);
    return new Configuration(copy);
  }

  /** This configuration's values on top of {@code base}'s. */
  public Configuration over(Configuration base) {
    Map<String, Object> copy = new LinkedHashMap<>(base.values);
    copy.putAll(values);
    return new Configuration(copy);
  }

  /** The settings as PostgreSQL takes them: name to rendered value (e.g. 256MB). */
  public Map<String, String> rendered(SearchSpace space) {
    Map<String, String> out = new TreeMap<>();
    values.forEach((name, value) -> out.put(name, space.knob(name).render(value)));
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Configuration c && values.equals(c.values);
  }

  @Override
  public int hashCode() {
    return values.hashCode();
  }

  @Override
  public String toString() {
    return values.toString();
  }
}
