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
import org.pgknob.session.SessionFolder;
import org.pgknob.session.SessionInputs;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SessionPostgres;
import org.pgknob.workload.tprocc.TproccSpec;
import picocli.CommandLine;

/**
 * A session folder recorded before workload specs (fixtures/session-before-workload-spec: its
 * inputs are key for key what pgknob wrote then, TPROC-C's options at the top level): report,
 * resume and compare still read it.
 */
class SessionBeforeWorkloadSpecTest {
  static final Path FIXTURE = Path.of("src/test/resources/fixtures/session-before-workload-spec");

  @TempDir Path tmp;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Cli.run(out, err, args);
  }

  private Path copy() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("2026-11-29T22-10-00"));
    try (Stream<Path> files = Files.list(FIXTURE)) {
      for (Path f : files.toList()) {
        Files.copy(f, dir.resolve(f.getFileName()));
      }
    }
    return dir;
  }

  @Test
  void itsInputsLoadAsTheTproccWorkloadTheyDescribe() throws IOException {
    SessionInputs inputs = SessionInputs.fromMap(SessionFolder.open(copy()).readState().inputs());
    assertEquals(new TproccSpec(3, 6, true), inputs.workload());
    assertEquals(5, inputs.rampupSeconds());
  }

  @Test
  void reportWritesItsReport() throws IOException {
    Path dir = copy();
    assertEquals(ExitCodes.OK, run("report", dir.toString()), err::toString);
    String html = Files.readString(dir.resolve("report.html"));
    assertTrue(html.contains("warehouses"), "the report names the workload");
  }

  /**
   * Stopped, it reaches the server check of resume: the inputs loaded (the fixture's server is not
   * this one, so resume stops there, before anything changes).
   */
  @Test
  void resumeReadsItAndChecksTheServer() throws IOException {
    Path dir = copy();
    Path session = dir.resolve(SessionFolder.SESSION_FILE);
    Files.writeString(
        session,
        Files.readString(session).replace("\"status\": \"finished\"", "\"status\": \"stopped\""));
    int exit =
        run(
            "resume",
            "--cluster-dir",
            SessionPostgres.cluster().clusterDir().toString(),
            dir.toString());
    assertEquals(ExitCodes.ERROR, exit, out::toString);
    assertTrue(
        err.toString().contains("pgknob: the target changed since session 2026-11-29T22-10-00"),
        err::toString);
  }

  /** compare takes the workload of the session it re-measures. */
  @Test
  void compareTakesItsWorkload() throws IOException {
    SessionFolder folder = SessionFolder.open(copy());
    Holder h = CommandLine.populateCommand(new Holder());
    SessionInputs original = SessionInputs.fromMap(folder.readState().inputs());
    assertEquals(new TproccSpec(3, 6, true), h.workload.spec(original.workload()));
    Holder more = CommandLine.populateCommand(new Holder(), "--users", "2");
    assertEquals(new TproccSpec(3, 2, true), more.workload.spec(original.workload()));
  }

  @CommandLine.Command
  static final class Holder {
    @CommandLine.Mixin WorkloadOptions workload;
  }
}
