package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.pgknob.Json;

/**
 * The verdict of recorded session folders against committed golden files: its console lines and its
 * summary.json form. The folders were recorded by real short sessions (restart track, budget 23)
 * through {@code --workload-cmd} with the deterministic synthetic workload beside them
 * (fixtures/verdict/synthetic-workload.sh), trimmed to session.json, trials.jsonl, summary.json and
 * the best-*.conf exports; the stopped one by Ctrl-C after its fifth trial. Run with {@code
 * -Dgolden.update=true} to rewrite the golden files after an intended change, and review the diff.
 */
class VerdictGoldenTest {
  private static final Path FIXTURES = Path.of("src/test/resources/fixtures/verdict");
  private static final Path GOLDEN = Path.of("src/test/resources/golden");
  private static final ObjectMapper MAPPER =
      Json.mapper()
          .copy()
          .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
          .enable(SerializationFeature.INDENT_OUTPUT);

  @Test
  void aPickThatBeatsTheDefaultsAndPgTuneStyleIsTheOneToApply() throws IOException {
    Verdict v = check("gain");
    assertEquals(Verdict.Kind.APPLY, v.kind());
  }

  @Test
  void pgTuneStyleAsGoodAsThePickIsTheOneToApply() throws IOException {
    Verdict v = check("pgtune");
    assertEquals(Verdict.Kind.PGTUNE, v.kind());
  }

  @Test
  void nothingBeyondNoiseKeepsTheDefaultsAndSuggestsALongerSession() throws IOException {
    Verdict v = check("nothing");
    assertEquals(Verdict.Kind.NOTHING, v.kind());
  }

  @Test
  void aStoppedSessionSaysWhatWasRestoredAndHowToResume() throws IOException {
    Verdict v = check("stopped");
    assertEquals(Verdict.Kind.STOPPED, v.kind());
  }

  private static Verdict check(String name) throws IOException {
    SessionFolder folder = SessionFolder.open(FIXTURES.resolve(name));
    Verdict verdict = Verdict.of(folder, "runs/" + folder.readState().id());
    String actual =
        String.join("\n", verdict.lines())
            + "\n\n"
            + MAPPER.writeValueAsString(verdict.toSummary()).replace("\r\n", "\n")
            + "\n";
    Path file = GOLDEN.resolve("verdict-" + name + ".txt");
    if (Boolean.getBoolean("golden.update")) {
      Files.writeString(file, actual, StandardCharsets.UTF_8);
    }
    assertEquals(
        Files.readString(file, StandardCharsets.UTF_8),
        actual,
        file + " changed; if intended, run with -Dgolden.update=true and review the diff");
    return verdict;
  }
}
