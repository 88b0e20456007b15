package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.pgknob.testing.Cli;

/** --storage, --cpus, --connections are checked before any server or folder is touched. */
class PgTuneOptionsTest {
  @Test
  void badValuesGiveOneLineNamingTheFix() {
    assertOneLine(
        "unknown storage type 'floppy' (use ssd, hdd or network (also nvme))",
        "tune",
        "--storage",
        "floppy");
    assertOneLine("--cpus must be at least 1, but got 0", "tune", "--cpus", "0");
    assertOneLine("--connections must be at least 1, but got -3", "tune", "--connections", "-3");
  }

  private static void assertOneLine(String expected, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertEquals(ExitCodes.ERROR, Cli.run(out, err, args));
    String text = err.toString();
    assertTrue(text.startsWith("pgknob: ") && text.contains(expected), text);
    assertEquals(1, text.strip().lines().count(), text);
    assertEquals("", out.toString());
  }
}
