package org.pgknob.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.pgknob.Json;
import org.pgknob.runs.Track;
import org.pgknob.safety.SafetyRules;
import org.pgknob.safety.SafetyRulesFile;
import org.pgknob.server.Target;
import org.pgknob.space.BoundSpace;
import org.pgknob.space.Knob;
import org.pgknob.space.PgSetting;
import org.pgknob.space.SearchSpace;
import org.pgknob.space.SearchSpaceFile;
import org.pgknob.space.ServerSpaceValidator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code pgknob space}: the search space as the server sees it. */
@Command(
    name = "space",
    mixinStandardHelpOptions = true,
    description = "Search spaces, checked against the live server.",
    subcommands = {SpaceCommand.Show.class})
public final class SpaceCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return ExitCodes.USAGE;
  }

  /** Prints each knob: type, range with unit, scale, grid, the server's default, reload/restart. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = {
        "Print the search space as the server sees it.",
        "Each knob's type, range, scale, sweep grid, default (the server's boot value) and"
            + " whether a change applies on reload or needs a restart (pg_settings.context).",
        "Durability values the safety rules hold back are listed."
      })
  public static final class Show implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(
        names = "--space",
        paramLabel = "FILE",
        description =
            "Search-space YAML file (default: the built-in " + SearchSpaceFile.DEFAULT + ").")
    Path spaceFile;

    @Option(
        names = {"--rules", "--safety-rules"}, // --safety-rules: the name before tune's --rules
        paramLabel = "FILE",
        description =
            "Safety-rules YAML file (default: the built-in " + SafetyRulesFile.DEFAULT + ").")
    Path rulesFile;

    @Mixin TargetOptions targetOptions;

    @Option(
        names = "--allow-durability-tradeoff",
        description = "Show the space with synchronous_commit=off allowed.")
    boolean allowDurabilityTradeoff;

    @Option(
        names = "--allow-unsafe",
        description = "Show the space with fsync=off and full_page_writes=off allowed.")
    boolean allowUnsafe;

    @Option(names = "--json", description = "Print the space as one JSON object.")
    boolean json;

    @Override
    public Integer call() throws SQLException {
      PrintWriter out = spec.commandLine().getOut();
      targetOptions.checkNumbers();
      SafetyRules rules =
          rulesFile == null ? SafetyRulesFile.loadDefault() : SafetyRulesFile.load(rulesFile);
      if (spaceFile != null) {
        SearchSpaceFile.load(spaceFile); // the file's own mistakes, before a server is started
      }
      Target target = openServer();
      BoundSpace bound;
      try (Connection conn = target.connect("postgres")) {
        bound =
            spaceFile == null
                ? ServerSpaceValidator.loadDefault(conn)
                : ServerSpaceValidator.load(spaceFile, conn);
        rules.validateAgainst(PgSetting.readAll(conn));
      }
      SearchSpace allowed =
          rules.restrictSpace(bound.space(), allowDurabilityTradeoff, allowUnsafe);
      List<String> held = rules.restrictions(allowDurabilityTradeoff, allowUnsafe);
      held.removeIf(r -> !bound.space().contains(r.substring(0, r.indexOf('='))));
      if (json) {
        out.print(asJson(bound, allowed, target, held, rules.source()));
        out.flush();
        return ExitCodes.OK;
      }
      out.printf(
          Locale.ROOT,
          "%s on PostgreSQL %d (%s): %d knobs, %d apply on reload, %d need a restart%n",
          bound.space().source(),
          bound.serverMajor(),
          target.describe(),
          allowed.size(),
          allowed.knobs().stream().filter(k -> !bound.needsRestart(k.name())).count(),
          allowed.knobs().stream().filter(k -> bound.needsRestart(k.name())).count());
      // Columns as wide as their widest cell: a long grid must not break the rows after it.
      TextColumns table =
          new TextColumns("knob", "type", "range", "scale", "grid", "default", "applies");
      for (Knob k : allowed.knobs()) {
        table.add(
            k.name(),
            k.type().name().toLowerCase(Locale.ROOT),
            range(k),
            k.isNumeric() ? k.scale().name().toLowerCase(Locale.ROOT) : "",
            k.grid().stream().map(Object::toString).collect(Collectors.joining(",")),
            k.defaultValue() == null ? "" : k.render(k.defaultValue()),
            applies(bound, k) + (k.condition() == null ? "" : ", only when " + k.condition()));
      }
      out.print(table);
      if (!held.isEmpty()) {
        out.println("held back by " + rules.source() + ": " + String.join("; ", held));
      }
      out.flush();
      return ExitCodes.OK;
    }

    private static String asJson(
        BoundSpace bound, SearchSpace allowed, Target target, List<String> held, String rules) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("space", bound.space().source());
      m.put("postgresMajor", bound.serverMajor());
      m.put("target", target.describe());
      List<Map<String, Object>> knobs = new ArrayList<>();
      for (Knob k : allowed.knobs()) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("name", k.name());
        row.put("type", k.type().name().toLowerCase(Locale.ROOT));
        if (k.isCategorical()) {
          row.put("choices", k.choices());
        } else {
          row.put("min", k.min());
          row.put("max", k.max());
          row.put("unit", k.unit());
          row.put("scale", k.scale().name().toLowerCase(Locale.ROOT));
        }
        row.put("grid", k.grid().stream().map(Object::toString).toList());
        row.put("default", k.defaultValue() == null ? null : k.render(k.defaultValue()));
        row.put("applies", Track.applying(bound.needsRestart(k.name())).label());
        row.put("context", bound.contextOf(k.name()));
        if (k.condition() != null) {
          row.put("condition", k.condition().toString());
        }
        knobs.add(row);
      }
      m.put("knobs", knobs);
      m.put("heldBack", held);
      m.put("heldBackBy", rules);
      try {
        return Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(m) + "\n";
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException("cannot write the space as JSON", e);
      }
    }

    /** The managed cluster (started if needed) or --target's server. */
    private Target openServer() {
      return targetOptions.open();
    }

    private static String range(Knob k) {
      if (k.isCategorical()) {
        return String.join("|", k.choices());
      }
      String unit = k.unit().isEmpty() ? "" : " " + k.unit();
      return fmt(k.min()) + " .. " + fmt(k.max()) + unit;
    }

    private static String applies(BoundSpace bound, Knob k) {
      String context = bound.contextOf(k.name());
      return Track.applying(bound.needsRestart(k.name())).label() + " (" + context + ")";
    }

    private static String fmt(double d) {
      return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
  }
}
