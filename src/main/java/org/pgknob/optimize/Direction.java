package org.pgknob.optimize;

/** Whether larger or smaller values of an objective are better. */
public enum Direction {
  MAXIMIZE,
  MINIMIZE;

  /** True when {@code a} is strictly better than {@code b}. */
  public boolean better(double a, double b) {
    return this == MAXIMIZE ? a > b : a < b;
  }
}
