package org.pgknob;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What a shell reads back from the words pgknob prints: each one the text it was given. */
class ShellWordsTest {
  @Test
  void plainTextStaysAsItIs() {
    assertEquals("/var/tmp/pw-file.txt", ShellWords.word("/var/tmp/pw-file.txt"));
    assertEquals(
        "jdbc:postgresql://db:5432/app?sslmode=require",
        ShellWords.word("jdbc:postgresql://db:5432/app?sslmode=require").replace("'", ""));
  }

  @Test
  void aWordWithSpacesOrShellCharactersIsQuoted() {
    assertEquals("'/root/my files/pw'", ShellWords.word("/root/my files/pw"));
    assertEquals("'a;b'", ShellWords.word("a;b"));
    assertEquals("'$HOME'", ShellWords.word("$HOME"));
  }

  @Test
  void aQuoteInsideIsClosedEscapedAndReopened() throws Exception {
    String text = "sudo -u postgres sh -c 'pg_ctl restart' && echo \"it's done\"";

    assertEquals(List.of(text), shellReads(ShellWords.quoted(text)));
    assertEquals(List.of(text), shellReads(ShellWords.word(text)));
  }

  /** The words /bin/sh makes of {@code line}, one per line of printf's output. */
  private static List<String> shellReads(String line) throws Exception {
    Process sh = new ProcessBuilder("sh", "-c", "printf '%s\\n' " + line).start();
    String out =
        new String(sh.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(0, sh.waitFor());
    return out.lines().toList();
  }
}
