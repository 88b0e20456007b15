package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every {@code ./pgknob ...} line of README.md's code blocks parses with the current commands and
 * options, as a shell would split it (quotes, a trailing backslash joining the next line, a {@code
 * #} comment, and a redirection or pipe ending the command): README's examples stay runnable as
 * written.
 */
class ReadmeExamplesTest {
  @Test
  void everyPgknobLineInReadmeCodeBlocksParses() throws IOException {
    List<String> examples = examples(Files.readAllLines(Path.of("README.md")));
    assertTrue(examples.size() >= 30, "README's examples were not found: " + examples);
    List<String> failures = new ArrayList<>();
    for (String example : examples) {
      List<String> words = words(example);
      try {
        Main.commandLine().parseArgs(words.subList(1, words.size()).toArray(new String[0]));
      } catch (CommandLine.ParameterException e) {
        failures.add(example + "\n    " + e.getMessage());
      }
    }
    assertEquals("", String.join("\n", failures), "README examples that do not parse");
  }

  /**
   * README shows the verdict of the recorded session folder fixtures/verdict/gain as the console
   * prints it; VerdictGoldenTest pins that text to the current logic, so README shows what this
   * version prints.
   */
  @Test
  void readmesVerdictExampleIsWhatTheRecordedSessionGives() throws IOException {
    String readme = Files.readString(Path.of("README.md"));
    int start = readme.indexOf("```\n== verdict\n");
    assertTrue(start >= 0, "README shows no verdict");
    String shown = readme.substring(start + 4, readme.indexOf("\n```", start + 4));
    String golden =
        Files.readString(Path.of("src/test/resources/golden/verdict-gain.txt")).split("\n\n")[0];
    assertEquals(golden, shown, "README's verdict example is not what this version prints");
  }

  @Test
  void theSplitterReadsQuotesCommentsAndRedirectionsAsAShellDoes() {
    assertEquals(
        List.of("./pgknob", "tune", "--workload-cmd", "sh bench.sh", "--budget", "30"),
        words("./pgknob tune --workload-cmd 'sh bench.sh' --budget 30   # a comment"));
    assertEquals(
        List.of("./pgknob", "export", "runs/x", "--track", "restart"),
        words("./pgknob export runs/x --track restart > best.conf"));
    assertEquals(
        List.of("./pgknob", "a", "say \"hi\" #1"), words("./pgknob a \"say \\\"hi\\\" #1\""));
  }

  /** The ./pgknob commands of the fenced code blocks, continuation lines joined. */
  static List<String> examples(List<String> lines) {
    List<String> out = new ArrayList<>();
    boolean inBlock = false;
    StringBuilder pending = null;
    for (String line : lines) {
      if (line.strip().startsWith("```")) {
        inBlock = !inBlock;
        continue;
      }
      if (!inBlock) {
        continue;
      }
      String text = line.strip();
      if (pending == null && !text.startsWith("./pgknob ") && !text.equals("./pgknob")) {
        continue;
      }
      pending = pending == null ? new StringBuilder(text) : pending.append(' ').append(text);
      if (text.endsWith("\\")) {
        pending.setLength(pending.length() - 1);
      } else {
        out.add(pending.toString());
        pending = null;
      }
    }
    return out;
  }

  /** The words of one shell command line, up to a comment, redirection, pipe or separator. */
  static List<String> words(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder word = null;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\'') {
        int end = line.indexOf('\'', i + 1);
        word = word == null ? new StringBuilder() : word;
        word.append(line, i + 1, end);
        i = end;
      } else if (c == '"') {
        word = word == null ? new StringBuilder() : word;
        for (i++; line.charAt(i) != '"'; i++) {
          if (line.charAt(i) == '\\' && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) {
            i++;
          }
          word.append(line.charAt(i));
        }
      } else if (Character.isWhitespace(c)) {
        if (word != null) {
          out.add(word.toString());
          word = null;
        }
      } else if (word == null
          && (c == '#' || c == '>' || c == '<' || c == '|' || c == ';' || c == '&')) {
        break;
      } else {
        word = word == null ? new StringBuilder() : word;
        word.append(c);
      }
    }
    if (word != null) {
      out.add(word.toString());
    }
    return out;
  }
}
