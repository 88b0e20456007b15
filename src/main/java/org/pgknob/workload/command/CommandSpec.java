package org.pgknob.workload.command;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pgknob.PgknobException;
import org.pgknob.workload.Workload;
import org.pgknob.workload.WorkloadSpec;

/**
 * The user's own benchmark command as a session runs it ({@code --workload-cmd CMD}).
 *
 * @param command run through {@code sh -c}
 * @param database the database named in PGDATABASE
 */
public record CommandSpec(String command, String database) implements WorkloadSpec {
  public CommandSpec {
    if (command == null || command.isBlank()) {
      throw new PgknobException(
          "--workload command needs --workload-cmd", "give the command that runs your benchmark");
    }
  }

  @Override
  public String name() {
    return CommandKind.NAME;
  }

  @Override
  public int users() {
    return 1;
  }

  @Override
  public long databaseBytes() {
    return 0;
  }

  /** Unknown: the command opens its own connections. */
  @Override
  public String applicationName() {
    return null;
  }

  @Override
  public List<String> tuneArguments() {
    return List.of("--workload-cmd", command);
  }

  @Override
  public Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", name());
    m.put("command", command);
    m.put("database", database);
    return m;
  }

  /** The command may take three ramp-ups and windows plus ten minutes before it is stopped. */
  @Override
  public Workload create(int rampupSeconds, int windowSeconds) {
    return new CommandWorkload(
        command,
        database,
        Duration.ofSeconds(3L * (rampupSeconds + windowSeconds) + 600),
        rampupSeconds,
        windowSeconds);
  }

  @Override
  public boolean timedByPgknob() {
    return false; // the command runs as long as it likes
  }
}
