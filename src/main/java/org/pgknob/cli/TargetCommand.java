package org.pgknob.cli;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.pgknob.Json;
import org.pgknob.PgknobException;
import org.pgknob.safety.SafetyRules;
import org.pgknob.safety.SafetyRulesFile;
import org.pgknob.safety.WalRoom;
import org.pgknob.server.DiskReading;
import org.pgknob.server.Privileges;
import org.pgknob.server.ServerFacts;
import org.pgknob.server.ServerSetting;
import org.pgknob.server.SupportedVersions;
import org.pgknob.server.Target;
import org.pgknob.space.Knob;
import org.pgknob.space.PgUnit;
import org.pgknob.space.SearchSpace;
import org.pgknob.space.SearchSpaceFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Prints the facts of the target server; changes nothing and leaves it running or stopped. */
@Command(
    name = "target",
    mixinStandardHelpOptions = true,
    description =
        "Show the target server: version, host RAM and cores, data folder, which settings apply on"
            + " reload and which need a restart, and pgknob's privileges.")
public final class TargetCommand implements Callable<Integer> {
  private static final int LINE_WIDTH = 100;

  @Spec CommandSpec spec;

  @Mixin TargetOptions targetOptions;

  @Option(names = "--all", description = "List every setting with its value, unit and context.")
  boolean all;

  @Option(
      names = "--json",
      description = "Print the same as one JSON object (with --all: every setting too).")
  boolean json;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    try (Target target = targetOptions.open()) {
      ServerFacts facts = target.facts();
      List<ServerSetting> settings = target.settings();
      if (json) {
        out.print(asJson(target, facts, settings));
        out.flush();
        return ExitCodes.OK;
      }
      out.println("target:     " + target.describe());
      out.println(
          "server:     PostgreSQL "
              + facts.serverVersion()
              + " (server_version_num "
              + facts.serverVersionNum()
              + ")");
      out.println("version:    " + versionFacts(facts.serverVersionNum() / 10000));
      out.println(
          "data:       "
              + (facts.dataDirectory() == null ? "hidden from this role" : facts.dataDirectory()));
      out.println("host:       " + host(facts));
      out.println("disk:       " + disk(target.disks(facts)));
      out.println("privileges: " + privileges(target, settings));
      List<ServerSetting> reload =
          settings.stream().filter(ServerSetting::appliesOnReload).toList();
      List<ServerSetting> restart = settings.stream().filter(ServerSetting::needsRestart).toList();
      out.println(
          "settings:   "
              + settings.size()
              + " in pg_settings: "
              + reload.size()
              + " apply on reload, "
              + restart.size()
              + " need a restart, "
              + (settings.size() - reload.size() - restart.size())
              + " fixed");
      if (all) {
        out.printf(
            Locale.ROOT, "%-40s %-24s %-6s %s%n", "name", "setting", "unit", "context (source)");
        for (ServerSetting s : settings) {
          out.printf(
              Locale.ROOT,
              "%-40s %-24s %-6s %s (%s)%n",
              s.name(),
              s.setting(),
              s.unit() == null ? "" : s.unit(),
              s.context(),
              s.source());
        }
      } else {
        printNames(out, "need a restart", restart);
        printNames(out, "apply on reload", reload);
        out.println("(--all lists every setting with its value)");
      }
    }
    out.flush();
    return ExitCodes.OK;
  }

  /**
   * What this major means for tuning: supported or not, and the default search space's knobs it
   * lacks (those with a higher min_version).
   */
  static String versionFacts(int major) {
    List<String> all = names(SearchSpaceFile.loadDefault(Integer.MAX_VALUE));
    List<String> here = names(SearchSpaceFile.loadDefault(major));
    List<String> missing = all.stream().filter(n -> !here.contains(n)).toList();
    String supported =
        major < SupportedVersions.OLDEST_MAJOR
            ? "NOT supported (pgknob supports PostgreSQL "
                + SupportedVersions.OLDEST_MAJOR
                + " to "
                + SupportedVersions.NEWEST_TESTED_MAJOR
                + ")"
            : "supported; ALTER SYSTEM may be granted per setting to a role that is not a"
                + " superuser";
    return "PostgreSQL "
        + major
        + " "
        + supported
        + "; "
        + (missing.isEmpty()
            ? "every knob of the default search space exists"
            : "left out of the default search space (newer majors only): "
                + String.join(", ", missing));
  }

  private static List<String> names(SearchSpace space) {
    return space.knobs().stream().map(Knob::name).toList();
  }

  /** The facts as JSON for scripts: the same fields the text shows, numbers as numbers. */
  private String asJson(Target target, ServerFacts facts, List<ServerSetting> settings) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("target", target.describe());
    m.put("serverVersion", facts.serverVersion());
    m.put("serverVersionNum", facts.serverVersionNum());
    m.put("dataDirectory", facts.dataDirectory());
    m.put("local", facts.local());
    facts.hostMemoryBytes().ifPresent(b -> m.put("hostMemoryBytes", b));
    facts.hostCores().ifPresent(c -> m.put("hostCores", c));
    facts.cgroupMemoryLimitBytes().ifPresent(b -> m.put("cgroupMemoryLimitBytes", b));
    facts.postmasterPid().ifPresent(p -> m.put("postmasterPid", p));
    target
        .disks(facts)
        .ifPresent(
            d -> {
              m.put("diskFreeBytes", d.leastFreeBytes());
              m.put("walRoomBytes", d.walRoomBytes());
              WalRoom room = WalRoom.of(d);
              if (room.known()) {
                m.put("walLimitBytes", SafetyRulesFile.loadDefault().walLimitBytes(room));
              }
            });
    m.put("privileges", privileges(target, settings));
    m.put(
        "needRestart",
        settings.stream().filter(ServerSetting::needsRestart).map(ServerSetting::name).toList());
    m.put(
        "applyOnReload",
        settings.stream().filter(ServerSetting::appliesOnReload).map(ServerSetting::name).toList());
    if (all) {
      List<Map<String, Object>> rows = new java.util.ArrayList<>();
      for (ServerSetting s : settings) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("name", s.name());
        row.put("setting", s.setting());
        row.put("unit", s.unit());
        row.put("context", s.context());
        row.put("source", s.source());
        rows.add(row);
      }
      m.put("settings", rows);
    }
    try {
      return Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(m) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot write the target's facts as JSON", e);
    }
  }

  private static String host(ServerFacts facts) {
    if (!facts.local() && facts.hostMemoryBytes().isEmpty()) {
      return "unknown: server on another host (process figures unavailable; see --agent-command)";
    }
    StringBuilder host = new StringBuilder(facts.local() ? "" : "from the agent: ");
    facts
        .hostMemoryBytes()
        .ifPresent(
            b -> host.append(String.format(Locale.ROOT, "%.1f GiB RAM, ", b / 1073741824.0)));
    // The server's cores: fewer than the host's under a cgroup CPU quota.
    facts.hostCores().ifPresent(c -> host.append(c).append(c == 1 ? " core, " : " cores, "));
    host.append(
        facts.cgroupMemoryLimitBytes().isPresent()
            ? String.format(
                Locale.ROOT,
                "cgroup memory limit %.1f GiB",
                facts.cgroupMemoryLimitBytes().getAsLong() / 1073741824.0)
            : "no cgroup memory limit");
    facts.postmasterPid().ifPresent(p -> host.append(", postmaster pid ").append(p));
    return host.toString();
  }

  /**
   * What the disk rule and the guardrail would see, by the default rules: the least free space, and
   * how much WAL a configuration may keep; or why nothing is read.
   */
  private static String disk(Optional<DiskReading> reading) {
    if (reading.isEmpty()) {
      return "not visible from this host (an agent on the database host, --agent-command, reads"
          + " it): a configuration's WAL is not checked against it";
    }
    DiskReading d = reading.get();
    SafetyRules rules = SafetyRulesFile.loadDefault();
    WalRoom room = WalRoom.of(d);
    return (d.leastFreeBytes() < 0
            ? "free space unknown"
            : PgUnit.readableBytes(d.leastFreeBytes()) + " free")
        + " on "
        + d.where()
        + (room.known()
            ? "; a configuration's WAL may take up to "
                + PgUnit.readableBytes(rules.walLimitBytes(room))
                + " ("
                + rules.walLimitFraction()
                + " x the WAL disk's "
                + PgUnit.readableBytes(room.bytes())
                + " of free space and WAL)"
            : "")
        + "; a trial stops under "
        + PgUnit.readableBytes(rules.diskReserveBytes())
        + " free";
  }

  private static String privileges(Target target, List<ServerSetting> settings) {
    try (Connection conn = target.connect("postgres")) {
      return Privileges.describe(conn, settings);
    } catch (SQLException e) {
      throw new PgknobException(
          "cannot check privileges on " + target.describe() + ": " + e.getMessage(), "");
    }
  }

  private static void printNames(PrintWriter out, String title, List<ServerSetting> settings) {
    out.println();
    out.println(settings.size() + " settings " + title + ":");
    StringBuilder line = new StringBuilder("  ");
    for (ServerSetting s : settings) {
      if (line.length() + s.name().length() + 2 > LINE_WIDTH) {
        out.println(line.toString().stripTrailing());
        line = new StringBuilder("  ");
      }
      line.append(s.name()).append(", ");
    }
    String last = line.toString().stripTrailing();
    out.println(last.endsWith(",") ? last.substring(0, last.length() - 1) : last);
  }
}
