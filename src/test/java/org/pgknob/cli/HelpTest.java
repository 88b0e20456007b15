package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.pgknob.testing.Cli;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every command's --help: labels that say what to type, nothing on standard error, and summaries
 * that are whole sentences.
 */
class HelpTest {
  /** A label picocli made from a Java field name, e.g. {@code <windowSeconds>}. */
  private static final Pattern FIELD_LABEL = Pattern.compile("=<[a-z]+[A-Z][A-Za-z]*>");

  /** A word with a dot inside it: a file name, a path, an abbreviation. */
  private static final Pattern DOTTED_WORD =
      Pattern.compile("[^\\s(]*[A-Za-z~/]\\.[A-Za-z][^\\s,;)]*");

  /** The end of a sentence, or of a line that introduces what follows. */
  private static final Pattern SENTENCE_END = Pattern.compile("[.:?!]\\)?$");

  @Test
  void everyCommandHelpIsCleanAndSaysWhatToType() {
    List<CommandLine> all = allCommands();
    for (CommandLine c : all) {
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      List<String> args = helpArgs(c);
      // picocli prints format warnings to System.err, not to the command's writer
      java.io.ByteArrayOutputStream systemErr = new java.io.ByteArrayOutputStream();
      java.io.PrintStream saved = System.err;
      System.setErr(new java.io.PrintStream(systemErr, true));
      try {
        assertEquals(0, Cli.run(out, err, args), args.toString());
      } finally {
        System.setErr(saved);
      }
      String where = String.join(" ", args);
      assertEquals("", err.toString() + systemErr, where + " wrote to stderr");
      assertFalse(FIELD_LABEL.matcher(out.toString()).find(), where + ":\n" + out);
    }
  }

  /**
   * picocli may wrap a long line after a dot inside a word ("postgresql." then "conf fragment"),
   * which reads as two words. Every dotted word of a description ("postgresql.conf", "~/.pgpass",
   * "e.g.") must appear whole in the help that shows it.
   */
  @Test
  void noHelpBreaksADottedWordAcrossLines() {
    List<CommandLine> all = allCommands();
    List<String> broken = new ArrayList<>();
    for (CommandLine c : all) {
      CommandSpec spec = c.getCommandSpec();
      List<String> shown = new ArrayList<>(List.of(spec.usageMessage().description()));
      spec.args().forEach(arg -> shown.addAll(List.of(arg.description())));
      c.getSubcommands()
          .values()
          .forEach(sub -> shown.add(sub.getCommandSpec().usageMessage().description()[0]));
      StringWriter out = new StringWriter();
      List<String> args = helpArgs(c);
      assertEquals(0, Cli.run(out, new StringWriter(), args), args.toString());
      String help = out.toString().replace("%%", "%");
      Map<String, Integer> inSource = new TreeMap<>();
      for (String line : shown) {
        Matcher word = DOTTED_WORD.matcher(line.replace("%%", "%"));
        while (word.find()) {
          inSource.merge(word.group(), 1, Integer::sum);
        }
      }
      Map<String, Integer> inHelp = new TreeMap<>();
      Matcher word = DOTTED_WORD.matcher(help);
      while (word.find()) {
        inHelp.merge(word.group(), 1, Integer::sum);
      }
      inSource.forEach(
          (dotted, count) -> {
            if (inHelp.getOrDefault(dotted, 0) < count) {
              broken.add(String.join(" ", args) + ": " + dotted);
            }
          });
    }
    assertEquals(List.of(), broken, "dotted words broken across lines");
  }

  /**
   * A parent's command list shows the first line of each subcommand's description alone, so that
   * line must be a whole sentence, not the start of one cut where the source wrapped it.
   */
  @Test
  void everySubcommandSummaryInTheCommandListIsAWholeSentence() {
    List<CommandLine> all = allCommands();
    List<String> cut = new ArrayList<>();
    for (CommandLine c : all.subList(1, all.size())) {
      String[] description = c.getCommandSpec().usageMessage().description();
      String first = description.length == 0 ? "" : description[0].strip();
      if (!first.endsWith(".")) {
        cut.add(c.getCommandSpec().qualifiedName(" ") + ": \"" + first + "\"");
      }
    }
    assertEquals(List.of(), cut, "summaries cut mid-sentence");
  }

  /**
   * picocli starts a new line at each element of a description, so an element that stops
   * mid-sentence (the source's own wrapping) prints as a ragged break inside the sentence. Each
   * element of a command's, an option's or a parameter's description must end a sentence.
   */
  @Test
  void everyDescriptionLineOfEveryCommandAndOptionEndsASentence() {
    List<CommandLine> all = allCommands();
    List<String> cut = new ArrayList<>();
    for (CommandLine c : all) {
      CommandSpec spec = c.getCommandSpec();
      String where = spec.qualifiedName(" ");
      collectCut(where, spec.usageMessage().description(), cut);
      for (ArgSpec arg : spec.args()) {
        String name = arg instanceof OptionSpec option ? option.longestName() : arg.paramLabel();
        collectCut(where + " " + name, arg.description(), cut);
      }
    }
    assertEquals(List.of(), cut, "description lines cut mid-sentence");
  }

  private static void collectCut(String where, String[] lines, List<String> cut) {
    for (String line : lines) {
      String stripped = line.strip();
      if (!stripped.isEmpty() && !SENTENCE_END.matcher(stripped).find()) {
        cut.add(where + ": \"" + stripped + "\"");
      }
    }
  }

  /** pgknob and every command and subcommand under it. */
  private static List<CommandLine> allCommands() {
    List<CommandLine> all = new ArrayList<>();
    collect(Main.commandLine(), all);
    return all;
  }

  /** The arguments that print {@code c}'s help: its path under pgknob, then --help. */
  private static List<String> helpArgs(CommandLine c) {
    List<String> args = new ArrayList<>(List.of(c.getCommandSpec().qualifiedName(" ").split(" ")));
    args.remove(0);
    args.add("--help");
    return args;
  }

  private static void collect(CommandLine c, List<CommandLine> into) {
    into.add(c);
    c.getSubcommands().values().stream().distinct().forEach(s -> collect(s, into));
  }
}
