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

  boolean allowed(boolean allowDurabilityTradeoff, boolean allowUnsafe) {
    return switch (needs) {
      case DURABILITY_TRADEOFF -> allowDurabilityTradeoff || allowUnsafe;
      case UNSAFE -> allowUnsafe;
    };
  }
}
