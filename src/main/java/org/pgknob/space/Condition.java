package org.pgknob.space;

import java.util.List;

/**
 * A knob is active only when another (enum or bool) knob has one of some values, e.g. {@code
 * io_workers} only when {@code io_method = worker}. An inactive knob is left at the server's
 * default.
 */
public record Condition(String knob, List<String> values) {
  public Condition {
    values = List.copyOf(values);
  }

  public boolean holds(Configuration config, SearchSpace space) {
    Object value = config.valueOrDefault(knob, space);
    return value != null && values.contains(value.toString());
  }

  @Override
  public String toString() {
    return values.size() == 1 ? knob + " = " + values.get(0) : knob + " in " + values;
  }
}
