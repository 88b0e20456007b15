package org.pgknob.safety;

import java.util.List;

/**
 * Values of a setting that weaken durability and need the user's explicit opt-in.
 *
 * @param knob the setting, e.g. synchronous_commit
 * @param values the values that need the opt-in, e.g. [off]
 * @param needs which opt-in
 * @param risk what can happen, for people
 */
record DurabilityRule(String knob, List<String> values, OptIn needs, String risk) {
  /** The two opt-ins, weakest first. */
  enum OptIn {
    /** --allow-durability-tradeoff: the last commits may be lost on a crash, no corruption. */
    DURABILITY_TRADEOFF("durability-tradeoff", "--allow-durability-tradeoff"),
    /** --allow-unsafe: a crash may corrupt the cluster. */
    UNSAFE("unsafe", "--allow-unsafe");

    final String fileName;
    final String flag;

    OptIn(String fileName, String flag) {
      this.fileName = fileName;
      this.flag = flag;
    }
  }

  DurabilityRule {
    values = List.copyOf(values);
  }

  /**
   * Whether {@code value} is one of the rule's values as PostgreSQL reads it: a value of "off" is
   * also written false, no, 0 or any unique prefix of them (parse_bool; synchronous_commit takes
   * the same spellings), so "fsync = false" is held back as "fsync = off" is.
   */
  /** Whether {@code knob = value} sets one of this rule's values (names ignore case). */
  boolean holds(String knob, String value) {
    return knob().equalsIgnoreCase(knob.strip()) && matches(value);
  }

  boolean matches(String value) {
    String v = value.strip();
    if (v.length() >= 2 && v.startsWith("'") && v.endsWith("'")) {
      v = v.substring(1, v.length() - 1).strip();
    }
    v = v.toLowerCase(java.util.Locale.ROOT);
    for (String held : values) {
      String h = held.toLowerCase(java.util.Locale.ROOT);
      if (h.equals(v) || (h.equals("off") && meansOff(v))) {
        return true;
      }
    }
    return false;
  }

  private static boolean meansOff(String v) {
    return !v.isEmpty()
        && (v.equals("0")
            || v.equals("of")
            || v.equals("off")
            || "false".startsWith(v)
            || "no".startsWith(v));
  }

  boolean allowed(boolean allowDurabilityTradeoff, boolean allowUnsafe) {
    return switch (needs) {
      case DURABILITY_TRADEOFF -> allowDurabilityTradeoff || allowUnsafe;
      case UNSAFE -> allowUnsafe;
    };
  }
}
