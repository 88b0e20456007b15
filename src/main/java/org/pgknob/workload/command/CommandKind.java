package org.pgknob.workload.command;

import java.util.List;
import java.util.Map;
import org.pgknob.workload.OptionValues;
import org.pgknob.workload.WorkloadKind;
import org.pgknob.workload.WorkloadSpec;

/** The user's benchmark command in the workload registry. */
public final class CommandKind implements WorkloadKind {
  public static final String NAME = "command";
  public static final String DEFAULT_DATABASE = "postgres";

  @Override
  public List<String> names() {
    return List.of(NAME);
  }

  /** Reads "command", and "workloadCommand" as sessions before workload specs wrote it. */
  @Override
  public WorkloadSpec spec(String name, Map<String, Object> options) {
    return new CommandSpec(
        OptionValues.stringOf(options, null, "command", "workloadCommand"),
        OptionValues.stringOf(options, DEFAULT_DATABASE, "database"));
  }
}
