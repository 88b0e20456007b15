package org.pgknob.cli;

import java.util.Map;
import org.pgknob.workload.pgbench.PgbenchKind;
import picocli.CommandLine.Option;

/** pgbench's own options for {@code tune} and {@code compare}; unset options are left out. */
final class PgbenchOptions {
  @Option(
      names = "--scale",
      paramLabel = "N",
      description =
          "pgbench's scale: 100,000 accounts each, about 15 MB (default: "
              + PgbenchKind.DEFAULT_SCALE
              + "; compare: the session's).")
  Integer scale;

  /** Puts the options given under their session.json keys, and each flag given with its owner. */
  void putGiven(Map<String, Object> options, Map<String, String> flags) {
    if (scale != null) {
      options.put("scale", scale);
      flags.put("--scale", String.join(" or ", new PgbenchKind().names()));
    }
  }
}
