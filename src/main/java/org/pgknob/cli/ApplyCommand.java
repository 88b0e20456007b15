package org.pgknob.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.pgknob.PgknobException;
import org.pgknob.report.ExportedSettings;
import org.pgknob.safety.SafetyRulesFile;
import org.pgknob.server.ApplyReport;
import org.pgknob.server.ManagedVersions;
import org.pgknob.server.Restorer;
import org.pgknob.server.SettingChange;
import org.pgknob.server.Target;
import org.pgknob.server.UnrestoredFiles;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Applies settings on top of the server's original ones and leaves them in place; {@code pgknob
 * restore} puts the originals back.
 */
@Command(
    name = "apply",
    mixinStandardHelpOptions = true,
    description =
        "Apply settings with ALTER SYSTEM, reloading or restarting as each needs, and keep them."
            + " The original values are recorded first; 'pgknob restore' brings them back.")
public final class ApplyCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin TargetOptions targetOptions;

  @Option(
      names = "--set",
      paramLabel = "NAME=VALUE",
      description =
          "A setting and its value as PostgreSQL takes it, for example shared_buffers=256MB;"
              + " after --from, it overrides the file's value.")
  Map<String, String> settings = new LinkedHashMap<>();

  @Option(
      names = "--force",
      description =
          "Go on although a session's restore file of this server was never restored (its"
              + " settings then count as the originals).")
  boolean force;

  @Option(
      names = "--allow-durability-tradeoff",
      description =
          "Apply synchronous_commit=off: the last commits before a crash may be lost (the"
              + " database stays consistent).")
  boolean allowDurabilityTradeoff;

  @Option(
      names = "--allow-unsafe",
      description =
          "Apply fsync=off or full_page_writes=off: a crash or power loss may corrupt the cluster."
              + " Includes --allow-durability-tradeoff.")
  boolean allowUnsafe;

  @Option(
      names = "--from",
      paramLabel = "FILE",
      description =
          "An exported configuration: a best-*.conf postgresql.conf fragment or a best-*.json of"
              + " a session folder (pgknob export).")
  Path from;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    Map<String, String> requested = requested();
    Target target = targetOptions.open();
    ApplyReport report;
    // Ctrl-C while a change is in flight: wait for it, then put the originals back.
    try (Restorer ignored = Restorer.onShutdown(target, spec.commandLine().getErr())) {
      UnrestoredFiles.check(target, target.restoreFile(), force, spec.commandLine().getErr());
      Map<String, String> wanted = new LinkedHashMap<>(target.appliedSettings());
      requested.forEach(
          (name, value) -> {
            wanted.keySet().removeIf(n -> n.equalsIgnoreCase(name.strip())); // names ignore case
            wanted.put(name.strip(), value);
          });
      ApplyWalWarning.of(target, wanted)
          .ifPresent(
              why -> {
                spec.commandLine().getErr().println("pgknob: warning: " + why);
                spec.commandLine().getErr().flush();
              });
      report = target.configure(wanted);
    } catch (RuntimeException e) {
      target.close(); // as found: a managed cluster started only for this is stopped again
      throw e;
    }
    if (report.changes().isEmpty()) {
      out.println("no setting changed: the server already runs with these values");
    }
    for (SettingChange change : report.changes()) {
      out.println(
          "  "
              + change.name()
              + ": "
              + change.before()
              + " -> "
              + change.after()
              + (change.needsRestart() ? "  (restart)" : "  (reload)"));
    }
    out.printf(
        Locale.ROOT,
        "%s in %.1f s on %s%n",
        report.restarted() ? "reloaded and restarted" : "reloaded",
        report.seconds(),
        target.describe());
    out.println("original settings recorded in " + target.restoreFile());
    out.println("put them back with: pgknob restore" + restoreHint(target));
    out.flush();
    return ExitCodes.OK;
  }

  /** The file's settings, then --set on top; read before the server is touched. */
  private Map<String, String> requested() {
    if (from == null && settings.isEmpty()) {
      throw new PgknobException(
          "nothing to apply", "give --set NAME=VALUE or --from FILE (an exported .conf or .json)");
    }
    Map<String, String> all = new LinkedHashMap<>();
    if (from != null) {
      all.putAll(ExportedSettings.read(from));
    }
    settings.forEach(
        (name, value) -> {
          all.keySet().removeIf(n -> n.equalsIgnoreCase(name.strip()));
          all.put(name.strip(), value);
        });
    // The safety rules' durability values need the same opt-in as in tune: apply once set
    // fsync=off from a file without a word, on a server it then left that way.
    List<String> held =
        SafetyRulesFile.loadDefault().heldBack(all, allowDurabilityTradeoff, allowUnsafe);
    if (!held.isEmpty()) {
      throw new PgknobException(
          "not applied: " + String.join("; ", held),
          "give the flag it names if you accept that risk, or leave the setting out; nothing was"
              + " changed");
    }
    return all;
  }

  /** What restore needs to find this server's file: it reads the default cluster's otherwise. */
  private String restoreHint(Target target) {
    return restoreHint(
        targetOptions.url, targetOptions.clusterDir, targetOptions.pgVersion, target.restoreFile());
  }

  /**
   * The options after "pgknob restore" that find the restore file of the server apply changed: its
   * --target, its file (a --cluster-dir cluster), --pg-version for a managed cluster of another
   * major than the default, else none.
   */
  static String restoreHint(String url, Path clusterDir, Integer pgVersion, Path restoreFile) {
    if (url != null) {
      return " --target '" + url + "' (or the file above)";
    }
    if (clusterDir != null) {
      return " " + restoreFile;
    }
    if (pgVersion != null && pgVersion != ManagedVersions.DEFAULT_MAJOR) {
      return " --pg-version " + pgVersion;
    }
    return "";
  }
}
