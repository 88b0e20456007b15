package org.pgknob.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FixtureSessionTest {
  @TempDir Path tmp;

  /** The golden input is what its generator writes: no hand edits drift from the model. */
  @Test
  void committedFixtureIsWhatTheGeneratorWrites() throws IOException {
    FixtureSession.write(tmp);
    for (String file : new String[] {"session.json", "trials.jsonl", "summary.json"}) {
      assertEquals(
          Files.readString(Fixtures.SESSION_SMALL.resolve(file)),
          Files.readString(tmp.resolve(file)),
          file + " differs: regenerate with FixtureSession.main");
    }
  }
}
