package org.pgknob.cli;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pgknob.PgknobException;
import org.pgknob.workload.WorkloadSpec;
import org.pgknob.workload.Workloads;
import org.pgknob.workload.command.CommandKind;
import org.pgknob.workload.tprocc.TproccKind;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Which workload each trial runs, and its options: one declaration for {@code tune} and {@code
 * compare}. The workload is made through the registry ({@link Workloads}), so any registered kind
 * can be named with {@code --workload}.
 */
final class WorkloadOptions {
  @Option(
      names = "--workload",
      paramLabel = "NAME",
      completionCandidates = KnownWorkloads.class,
      description =
          "What each trial runs, one of the registered workloads: ${COMPLETION-CANDIDATES}"
              + " (default: tprocc; compare: the session's).")
  String workload;

  /** The registry's names, so a workload added as a plug-in shows in the help unasked. */
  static final class KnownWorkloads implements Iterable<String> {
    @Override
    public Iterator<String> iterator() {
      return Workloads.names().iterator();
    }
  }

  @Option(
      names = "--workload-cmd",
      paramLabel = "CMD",
      description = {
        "Run this benchmark command as each trial's workload (implies --workload command; see"
            + " README: settings as JSON on stdin, {\"value\": TPS} on stdout; server in"
            + " PGHOST/PGPORT/PGUSER/PGDATABASE/PGPASSFILE)."
      })
  String workloadCommand;

  @Mixin RunOptions run;
  @Mixin TproccOptions tprocc;
  @Mixin PgbenchOptions pgbench;

  /**
   * The workload the options name, on top of {@code base} (the compared session's, or null): the
   * name given, else the command's, else base's, else TPROC-C; options given replace base's.
   *
   * @throws PgknobException for an unknown name, or an option that belongs to another workload
   */
  WorkloadSpec spec(WorkloadSpec base) {
    if (workload != null && workloadCommand != null && !workload.equals(CommandKind.NAME)) {
      throw new PgknobException(
          "--workload-cmd runs your own command, but --workload names " + workload,
          "drop one of them");
    }
    String name =
        workload != null
            ? workload
            : workloadCommand != null
                ? CommandKind.NAME
                : base != null ? base.name() : TproccKind.NAME;
    Workloads.requireKnown(name); // "unknown workload 'pgbench'", not "--scale is not pgbench's"
    Map<String, Object> options = new LinkedHashMap<>();
    if (base != null && base.name().equals(name)) {
      options.putAll(base.toMap());
    }
    Map<String, String> flags = new LinkedHashMap<>();
    tprocc.putGiven(options, flags);
    pgbench.putGiven(options, flags);
    for (Map.Entry<String, String> f : flags.entrySet()) {
      if (!List.of(f.getValue().split(" or ")).contains(name)) {
        throw new PgknobException(
            f.getKey() + " is an option of " + f.getValue() + ", but the workload is " + name,
            "leave " + f.getKey() + " out, or choose " + f.getValue() + " with --workload");
      }
    }
    if (run.users != null) {
      if (name.equals(CommandKind.NAME)) {
        throw new PgknobException(
            "--users sets a built-in workload's connections, but the workload is your command",
            "leave --users out: your command opens its own connections");
      }
      options.put("users", run.users);
    }
    if (workloadCommand != null) {
      options.put("command", workloadCommand);
    }
    return Workloads.spec(name, options);
  }
}
