package org.pgknob.safety;

import java.util.List;

/**
 * A term of the memory model as the rules file writes it: a product of factors, each a number, a
 * PostgreSQL setting (memory settings in bytes), {@code active_connections} or {@code
 * per_connection} (the measured memory of one connection).
 */
record MemoryTermRule(String name, List<String> factors) {
  static final String ACTIVE_CONNECTIONS = "active_connections";
  static final String PER_CONNECTION = "per_connection";

  MemoryTermRule {
    factors = List.copyOf(factors);
  }

  static boolean isVariable(String factor) {
    return factor.equals(ACTIVE_CONNECTIONS) || factor.equals(PER_CONNECTION);
  }

  static boolean isNumber(String factor) {
    try {
      Double.parseDouble(factor);
      return true;
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /** The settings this term reads. */
  List<String> settings() {
    return factors.stream().filter(f -> !isVariable(f) && !isNumber(f)).toList();
  }
}
