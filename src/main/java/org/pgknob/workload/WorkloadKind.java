package org.pgknob.workload;

import java.util.List;
import java.util.Map;

/**
 * A kind of workload, the plug-in contract: its names, and a {@link WorkloadSpec} from options.
 * Implementations are found by {@link java.util.ServiceLoader} (one line in {@code
 * META-INF/services/org.pgknob.workload.WorkloadKind}) and need a public no-argument constructor.
 */
public interface WorkloadKind {
  /** Virtual users of the built-in workloads when none are asked for. */
  int DEFAULT_USERS = 4;

  /** The names {@code --workload} accepts for this kind (several for variants of one driver). */
  List<String> names();

  /**
   * The spec of workload {@code name}, one of {@link #names()}.
   *
   * @param options option values by key as session.json or the command line gives them; a missing
   *     key takes the workload's default, keys of other workloads are ignored
   * @throws org.pgknob.PgknobException for a value out of range, naming the option
   */
  WorkloadSpec spec(String name, Map<String, Object> options);
}
