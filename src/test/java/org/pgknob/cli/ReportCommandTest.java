package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.testing.Cli;

class ReportCommandTest {
  @TempDir Path tmp;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Cli.run(out, err, args);
  }

  @Test
  void writesTheReportOfASessionFolder() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("run"));
    try (Stream<Path> files = Files.list(Path.of("src/test/resources/fixtures/session-small"))) {
      for (Path f : files.toList()) {
        Files.copy(f, dir.resolve(f.getFileName()));
      }
    }
    assertEquals(ExitCodes.OK, run("report", dir.toString()));
    assertTrue(Files.isRegularFile(dir.resolve("report.html")));
    assertTrue(Files.isRegularFile(dir.resolve("charts/tail-latency.png")));
    assertTrue(out.toString().contains("report.html"), out.toString());
  }

  @Test
  void aFolderThatIsNotASessionIsOneLineAndExitOne() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("not-a-run"));
    assertEquals(ExitCodes.ERROR, run("report", dir.toString()));
    String message = err.toString().strip();
    assertEquals(1, message.lines().count(), message);
    assertTrue(message.contains("not-a-run is not a session"), message);
  }
}
