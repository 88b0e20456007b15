package org.pgknob.cli;

import java.util.Map;
import org.pgknob.workload.tprocc.TproccKind;
import picocli.CommandLine.Option;

/** TPROC-C's own options for {@code tune} and {@code compare}; unset options are left out. */
final class TproccOptions {
  @Option(
      names = "--warehouses",
      paramLabel = "N",
      description =
          "TPROC-C warehouses, about 100 MB each (default: "
              + TproccKind.DEFAULT_WAREHOUSES
              + "; compare: the session's).")
  Integer warehouses;

  @Option(
      names = "--all-warehouses",
      description = "TPROC-C: each user draws a warehouse per transaction (HammerDB's option).")
  Boolean allWarehouses;

  /** Puts the options given under their session.json keys, and each flag given with its owner. */
  void putGiven(Map<String, Object> options, Map<String, String> flags) {
    if (warehouses != null) {
      options.put("warehouses", warehouses);
      flags.put("--warehouses", TproccKind.NAME);
    }
    if (allWarehouses != null) {
      options.put("allWarehouses", allWarehouses);
      flags.put("--all-warehouses", TproccKind.NAME);
    }
  }
}
