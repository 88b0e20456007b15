package org.pgknob.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.Json;

/**
 * The data behind the report, from the recorded session, against committed golden files. Run with
 * {@code -Dgolden.update=true} to rewrite them after an intended change, and review the diff.
 */
class ReportModelGoldenTest {
  private static final Path GOLDEN = Path.of("src/test/resources/golden");
  private static final ObjectMapper MAPPER =
      Json.mapper()
          .copy()
          .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
          .enable(SerializationFeature.INDENT_OUTPUT);

  @TempDir Path tmp;

  @Test
  void finishedSessionGivesTheGoldenModel() throws IOException {
    check("report-model-session-small.json", SessionLoader.load(Fixtures.SESSION_SMALL));
  }

  @Test
  void sessionWithoutSummaryAndACutOffLineGivesTheGoldenModel() throws IOException {
    Path dir = Fixtures.truncated(tmp.resolve("run"));
    Files.delete(dir.resolve("summary.json"));
    check("report-model-unfinished.json", SessionLoader.load(dir));
  }

  private static void check(String name, SessionData data) throws IOException {
    String actual =
        MAPPER.writeValueAsString(ReportModelBuilder.build(data)).replace("\r\n", "\n") + "\n";
    Path file = GOLDEN.resolve(name);
    if (Boolean.getBoolean("golden.update")) {
      Files.createDirectories(GOLDEN);
      Files.writeString(file, actual, StandardCharsets.UTF_8);
    }
    assertEquals(
        Files.readString(file, StandardCharsets.UTF_8),
        actual,
        name + " changed; if intended, run with -Dgolden.update=true and review the diff");
  }
}
