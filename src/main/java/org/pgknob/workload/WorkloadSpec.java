package org.pgknob.workload;

import java.util.List;
import java.util.Map;

/**
 * One workload as a session was asked to run it: its kind and its own options, checked when made.
 * session.json keeps it as {@link #toMap()}, and {@link Workloads#fromMap} makes it again, so a
 * resumed or compared session runs the same workload.
 */
public interface WorkloadSpec {
  /** The registered name, e.g. "tprocc" or "pgbench-tpcb". */
  String name();

  /** Connections {@link Workload#run} holds at once: the safety rules count their memory. */
  int users();

  /** About the bytes a reset copies (0 when there is no reset): the budget's estimate uses it. */
  long databaseBytes();

  /** The database the workload runs in: the guardrail and timeouts stop its backends. */
  String database();

  /**
   * The application_name of the workload's connections, so a guardrail stops only those; null when
   * it cannot be known (an external command).
   */
  String applicationName();

  /**
   * True when the ramp-up and window pgknob gives set the run's length; false for a workload that
   * times itself (an external command), for which a longer --duration would change nothing.
   */
  default boolean timedByPgknob() {
    return true;
  }

  /**
   * The arguments of {@code pgknob tune} that run this workload again, its defaults left out: what
   * a verdict's next steps print. A workload without options of its own is named by --workload.
   */
  default List<String> tuneArguments() {
    return List.of("--workload", name());
  }

  /** The spec as session.json keeps it: "name" and each option. */
  Map<String, Object> toMap();

  /** The workload itself, with a ramp-up and a measured window of these lengths. */
  Workload create(int rampupSeconds, int windowSeconds);
}
