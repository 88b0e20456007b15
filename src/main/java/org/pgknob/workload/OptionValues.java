package org.pgknob.workload;

import java.util.Map;
import org.pgknob.PgknobException;

/** Typed reads of a workload's options map (from session.json or the command line). */
public final class OptionValues {
  private OptionValues() {}

  /** The first of {@code keys} present, as an int, else {@code otherwise}. */
  public static int intOf(Map<String, Object> m, int otherwise, String... keys) {
    Object v = first(m, keys);
    if (v == null) {
      return otherwise;
    }
    if (v instanceof Number n && n.doubleValue() == n.intValue()) {
      return n.intValue();
    }
    throw bad(keys[0], v, "a whole number");
  }

  public static boolean booleanOf(Map<String, Object> m, boolean otherwise, String... keys) {
    Object v = first(m, keys);
    if (v == null) {
      return otherwise;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    throw bad(keys[0], v, "true or false");
  }

  /** The first of {@code keys} present and not empty, as text, else {@code otherwise}. */
  public static String stringOf(Map<String, Object> m, String otherwise, String... keys) {
    Object v = first(m, keys);
    if (v == null || v.toString().isEmpty()) {
      return otherwise;
    }
    if (v instanceof String s) {
      return s;
    }
    throw bad(keys[0], v, "text");
  }

  private static Object first(Map<String, Object> m, String... keys) {
    for (String k : keys) {
      Object v = m.get(k);
      if (v != null) {
        return v;
      }
    }
    return null;
  }

  private static PgknobException bad(String key, Object value, String expected) {
    return new PgknobException(
        "the workload option " + key + " must be " + expected + ", but got '" + value + "'",
        "the session folder's session.json is damaged");
  }
}
