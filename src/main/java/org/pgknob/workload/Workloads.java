package org.pgknob.workload;

import java.util.Collections;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import org.pgknob.PgknobException;

/** The registry of workload kinds: every {@link WorkloadKind} on the class path, by name. */
public final class Workloads {
  private static final Map<String, WorkloadKind> KINDS = load();

  private Workloads() {}

  private static Map<String, WorkloadKind> load() {
    Map<String, WorkloadKind> kinds = new TreeMap<>();
    for (WorkloadKind kind : ServiceLoader.load(WorkloadKind.class)) {
      for (String name : kind.names()) {
        WorkloadKind previous = kinds.putIfAbsent(name, kind);
        if (previous != null && previous.getClass() != kind.getClass()) {
          throw new IllegalStateException(
              "two workload kinds are named " + name + ": " + previous.getClass() + ", " + kind);
        }
      }
    }
    return kinds;
  }

  /** Every known name, sorted. */
  public static Set<String> names() {
    return Collections.unmodifiableSet(KINDS.keySet());
  }

  /**
   * The spec of the workload {@code name} with {@code options}.
   *
   * @throws PgknobException for an unknown name (listing the known ones) or a bad option
   */
  public static WorkloadSpec spec(String name, Map<String, Object> options) {
    return kind(name).spec(name, options);
  }

  /**
   * Refuses an unknown name, so that a misspelt workload is named as such before its options are
   * judged against it.
   *
   * @throws PgknobException for an unknown name, listing the known ones
   */
  public static void requireKnown(String name) {
    kind(name);
  }

  private static WorkloadKind kind(String name) {
    WorkloadKind kind = KINDS.get(name);
    if (kind == null) {
      throw new PgknobException(
          "unknown workload '" + name + "'; known: " + String.join(", ", names()),
          "give --workload one of them");
    }
    return kind;
  }

  /** A spec back from the map {@link WorkloadSpec#toMap()} wrote. */
  public static WorkloadSpec fromMap(Map<String, Object> m) {
    Object name = m.get("name");
    if (!(name instanceof String s)) {
      throw new PgknobException(
          "the workload in session.json has no name", "the session folder is damaged");
    }
    return spec(s, m);
  }
}
