package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BelowPgTuneNoteTest {
  @Test
  void ratiosThatDifferAtTwoDecimalsKeepTwo() {
    assertEquals(
        "; measured below PGTune-style (1.19x against 1.20x TPS)",
        SessionResults.belowPgTuneNote(1.19, 1.2));
  }

  @Test
  void ratiosEqualAtTwoDecimalsShowTheThirdThatTellsThemApart() {
    assertEquals(
        "; measured below PGTune-style (1.137x against 1.141x TPS)",
        SessionResults.belowPgTuneNote(1.1371, 1.1412));
  }
}
