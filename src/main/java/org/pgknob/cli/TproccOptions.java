package org.pgknob.cli;

import java.util.Map;
import org.pgknob.workload.tprocc.TproccKind;
import picocli.CommandLine.Mixin;
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

  @Mixin AllWarehousesOption all;

  /** Puts the options given under their session.json keys, and each flag given with its owner. */
  void putGiven(Map<String, Object> options, Map<String, String> flags) {
    if (warehouses != null) {
      options.put("warehouses", warehouses);
      flags.put("--warehouses", TproccKind.NAME);
    }
    if (all.allWarehouses != null) {
      options.put("allWarehouses", all.allWarehouses);
      flags.put("--all-warehouses", TproccKind.NAME);
    }
  }
}
