package org.pgknob.safety;

/** A relation two settings must keep, e.g. {@code min_wal_size <= max_wal_size}. */
record Relation(String left, String operator, String right) {
  boolean holds(double l, double r) {
    return switch (operator) {
      case "<=" -> l <= r;
      case "<" -> l < r;
      case ">=" -> l >= r;
      case ">" -> l > r;
      default -> l == r;
    };
  }

  @Override
  public String toString() {
    return left + " " + operator + " " + right;
  }
}
