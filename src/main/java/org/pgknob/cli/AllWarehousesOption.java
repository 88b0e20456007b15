package org.pgknob.cli;

import picocli.CommandLine.Option;

/**
 * HammerDB's all-warehouses option of TPROC-C: one declaration for {@code tune}, {@code compare}
 * and {@code tprocc run}. Unset is null, so {@code compare} can take the compared session's.
 */
final class AllWarehousesOption {
  @Option(
      names = "--all-warehouses",
      description = "TPROC-C: each user draws a warehouse per transaction (HammerDB's option).")
  Boolean allWarehouses;

  /** Whether it was given (as {@code tprocc run} reads it: unset is off). */
  boolean on() {
    return Boolean.TRUE.equals(allWarehouses);
  }
}
