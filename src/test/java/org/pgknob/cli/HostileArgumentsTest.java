package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.session.SessionFolderFixtures;
import org.pgknob.testing.Cli;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Every subcommand, every option and parameter, each given hostile values one at a time: numbers
 * that overflow or are negative, paths that are missing, unwritable, a file where a folder is
 * expected or a folder where a file is, empty and enormous strings, a line break. Each run must end
 * in exit 0, 1 or 2 with at most one line on standard error (exactly one when it fails): never an
 * internal error, never a stack of lines. The subcommands and their options are read from picocli's
 * model, so a new option is walked without editing this test.
 *
 * <p>Fast and harmless by construction: commands that reach a server are pointed at a closed port
 * (connection refused at once), {@code space show} at a missing space file (refused before its
 * server starts), and every output folder is under a temporary folder.
 */
class HostileArgumentsTest {
  /** Port 1 on the loopback: nothing listens, so a connection is refused at once. */
  static final String CLOSED_SERVER = "jdbc:postgresql://127.0.0.1:1/postgres";

  @TempDir static Path tmp;
  static Path session;
  static Path aFile;
  static Path aFolder;
  static Path validSpace;
  static Path validConf;

  @BeforeAll
  static void files() throws Exception {
    session = SessionFolderFixtures.finished(tmp.resolve("runs")).dir();
    aFile = Files.writeString(tmp.resolve("a-file"), "not what pgknob expects\n");
    aFolder = Files.createDirectories(tmp.resolve("a-folder"));
    validSpace =
        Files.writeString(tmp.resolve("space.yaml"), "knobs:\n  x: {type: real, min: 0, max: 1}\n");
    validConf = Files.writeString(tmp.resolve("a.conf"), "work_mem = '8MB'\n");
  }

  @Test
  void everyArgumentOfEverySubcommandFailsInOneLineWithoutAnInternalError() {
    List<String> failures = new ArrayList<>();
    Set<Object> walked = new HashSet<>();
    int runs = 0;
    for (CommandLine command : commands(Main.commandLine())) {
      CommandSpec spec = command.getCommandSpec();
      for (ArgSpec arg : spec.args()) {
        // A mixin's option (TargetOptions' --target in nine commands) is one field and one code
        // path: walked once, on the first command that has it, to keep the test fast.
        if (isIgnored(arg) || !walked.add(identity(arg))) {
          continue;
        }
        for (String value : hostileValues(arg)) {
          List<String> args = new ArrayList<>(path(spec));
          args.addAll(base(spec, arg));
          if (arg instanceof OptionSpec o) {
            args.add(o.longestName());
          }
          args.add(value);
          Result r = run(args);
          runs++;
          String problem = r.problem();
          if (problem != null) {
            failures.add(show(args) + " -> " + problem);
          }
        }
      }
    }
    System.out.println("HostileArgumentsTest: walked " + runs + " command lines");
    assertTrue(runs > 200, "walked only " + runs + " command lines");
    assertEquals("", String.join("\n", failures));
  }

  @Test
  void theIssuesOwnExamplesSayWhatIsWrong() throws Exception {
    Result budget =
        run(List.of("tune", "--target", CLOSED_SERVER, "--budget", "99999999999999999999"));
    assertEquals(1, budget.rc, budget.err);
    assertTrue(budget.err.contains("is too large"), budget.err);

    Result export =
        run(
            List.of(
                "export", session.toString(), "--out", tmp.resolve("no/such/x.conf").toString()));
    assertEquals(1, export.rc, export.err);
    assertTrue(export.err.contains("no such file or folder"), export.err);

    Result optimize =
        run(
            List.of(
                "optimize",
                "--space",
                validSpace.toString(),
                "--objective-cmd",
                "echo '{\"value\": 1}'",
                "--budget",
                "1",
                "--out",
                aFile.toString()));
    assertEquals(1, optimize.rc, optimize.err);
    assertTrue(optimize.err.contains(aFile + " is not a folder"), optimize.err);

    Result timeout = run(List.of("target", "--target", CLOSED_SERVER, "--restart-timeout", "-5"));
    assertEquals(1, timeout.rc, timeout.err);
    assertTrue(timeout.err.contains("--restart-timeout must be between 1 and"), timeout.err);

    Result unknown = run(List.of("tune", "--bogus"));
    assertEquals(2, unknown.rc, unknown.err);
    assertEquals("pgknob: Unknown option: '--bogus' (see: pgknob tune --help)\n", unknown.err);

    String huge = "x".repeat(10_000);
    Result longValue = run(List.of("export", session.toString(), "--track", huge));
    assertEquals(1, longValue.rc, longValue.err);
    assertTrue(longValue.err.length() < 300, longValue.err);
    assertTrue(longValue.err.contains("(10000 characters)"), longValue.err);
  }

  /** The values that must be refused cleanly, by what the argument takes. */
  private static List<String> hostileValues(ArgSpec arg) {
    Class<?> type = arg.type();
    List<String> values = new ArrayList<>(List.of(""));
    if (type == int.class
        || type == Integer.class
        || type == long.class
        || type == Long.class
        || type == double.class
        || type == Double.class) {
      values.addAll(List.of("-5", "99999999999999999999", "-99999999999999999999", "0", "12abc"));
    } else if (type == Path.class
        || (arg.auxiliaryTypes().length > 0 && arg.auxiliaryTypes()[0] == Path.class)) {
      values.addAll(
          List.of(
              // Absolute: a relative path would land in the folder the tests run in.
              tmp.resolve("-5").toString(),
              tmp.resolve("missing/x").toString(),
              aFile.toString(),
              aFolder.toString(),
              aFile.resolve("x").toString(),
              "/proc/pgknob-cannot-write-here"));
    } else {
      values.addAll(
          List.of(
              "-5",
              "99999999999999999999",
              "x".repeat(10_000),
              "a\nb",
              "'; DROP TABLE x; --",
              "=",
              "no_such_setting=1"));
    }
    return values;
  }

  /**
   * What a command needs besides the argument under test: its required arguments, the closed
   * server, an output folder under the temporary folder. The argument under test is left out.
   */
  private static List<String> base(CommandSpec spec, ArgSpec tested) {
    List<String> args = new ArrayList<>();
    String name = spec.qualifiedName();
    addOption(spec, tested, args, "--target", CLOSED_SERVER);
    addOption(spec, tested, args, "--out", tmp.resolve("out").toString());
    if (name.endsWith(" optimize")) {
      addOption(spec, tested, args, "--space", validSpace.toString());
      addOption(spec, tested, args, "--objective-cmd", "exit 1");
      addOption(spec, tested, args, "--budget", "1");
    } else if (name.endsWith(" apply")) {
      addOption(spec, tested, args, "--set", "work_mem=1MB");
    } else if (name.endsWith(" space show")) {
      addOption(spec, tested, args, "--space", tmp.resolve("missing.yaml").toString());
    } else if (name.endsWith(" compare") && !(tested instanceof PositionalParamSpec)) {
      addOption(spec, tested, args, "--config", validConf.toString());
    }
    for (PositionalParamSpec p : spec.positionalParameters()) {
      if (p != tested && p.arity().min() > 0) {
        args.add(session.toString());
      }
    }
    return args;
  }

  private static void addOption(
      CommandSpec spec, ArgSpec tested, List<String> args, String name, String value) {
    OptionSpec o = spec.findOption(name);
    if (o != null && o != tested) {
      args.add(name);
      args.add(value);
    }
  }

  /** Help, version and --debug print or change nothing worth probing; flags take no value. */
  private static boolean isIgnored(ArgSpec arg) {
    if (arg instanceof OptionSpec o) {
      return o.usageHelp()
          || o.versionHelp()
          || o.longestName().equals("--debug")
          || o.arity().max() == 0;
    }
    return false;
  }

  /** The field an argument is read into, else the argument itself. */
  private static Object identity(ArgSpec arg) {
    return arg.userObject() instanceof Field f ? f : arg;
  }

  /** Every command that runs (has no subcommands of its own), depth first. */
  private static List<CommandLine> commands(CommandLine root) {
    List<CommandLine> out = new ArrayList<>();
    for (CommandLine sub : root.getSubcommands().values()) {
      if (sub.getSubcommands().isEmpty()) {
        if (!out.contains(sub)) {
          out.add(sub);
        }
      } else {
        out.addAll(commands(sub));
      }
    }
    return out;
  }

  /** The words that name {@code spec} on the command line: "tprocc", "run". */
  private static List<String> path(CommandSpec spec) {
    List<String> words = new ArrayList<>(List.of(spec.qualifiedName().split(" ")));
    words.remove(0); // "pgknob"
    return words;
  }

  private static String show(List<String> args) {
    return String.join(" ", args.stream().map(OneLine::shorten).toList()).replace("\n", "\\n");
  }

  private static Result run(List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int rc = Cli.run(out, err, args);
    return new Result(rc, err.toString());
  }

  private record Result(int rc, String err) {
    /** What is wrong with this ending, or null. */
    String problem() {
      long lines = err.lines().count();
      if (rc != 0 && rc != 1 && rc != 2) {
        return "exit " + rc + ": " + OneLine.of(err);
      }
      if (rc != 0 && lines != 1) {
        return "exit " + rc + " with " + lines + " lines on stderr: " + OneLine.of(err);
      }
      if (rc == 0 && lines > 1) {
        return "exit 0 with " + lines + " lines on stderr: " + OneLine.of(err);
      }
      return null;
    }
  }
}
