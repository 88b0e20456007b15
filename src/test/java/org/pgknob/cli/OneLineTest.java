package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class OneLineTest {
  private static final String LONG = "x".repeat(50) + " " + "y".repeat(60);

  @Test
  void aLongQuotedValueKeepsItsStartAndSaysHowLongItWas() {
    assertEquals(
        "unknown setting '" + LONG.substring(0, 60) + "...(111 characters)' in space.yaml",
        OneLine.of("unknown setting '" + LONG + "' in space.yaml"));
  }

  @Test
  void apostrophesInsideWordsAreNotAQuotedValue() {
    String message =
        "the server's WAL archiving is failing (segment 000000010000000000000001 at 2026-12-06"
            + " 11:37:52 UTC, pg_stat_archiver): PostgreSQL keeps every segment, so the session's"
            + " WAL would pile up";
    assertEquals(message, OneLine.of(message));
  }

  @Test
  void lineBreaksInAValueBecomeVisible() {
    assertEquals("value 'a\\nb'", OneLine.of("value 'a\nb'"));
  }
}
