package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.PgknobException;

/**
 * A new session's folder when its server cannot be opened: named on the first line, then removed
 * unless the setup already recorded something in it. (A refusal after the server is open is covered
 * by CompareCommandTest, a refusal of the options by SessionBadInputTest.)
 */
class SessionRunnerTest {
  @TempDir Path runs;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private static final PgknobException UNREACHABLE =
      new PgknobException("cannot reach the server", "start it");

  private PgknobException runRefused(String label, Consumer<Path> beforeRefusal) {
    return assertThrows(
        PgknobException.class,
        () ->
            SessionRunner.runInNewFolder(
                runs,
                label,
                restore -> {
                  beforeRefusal.accept(restore);
                  throw UNREACHABLE;
                },
                new PrintWriter(out),
                new PrintWriter(err),
                (folder, target) -> {
                  throw new AssertionError("no session is prepared without a server");
                }));
  }

  private List<Path> folders() throws Exception {
    try (Stream<Path> all = Files.list(runs)) {
      return all.toList();
    }
  }

  @Test
  void removesTheNewFolderWhenTheServerCannotBeOpened() throws Exception {
    Path[] restoreFile = new Path[1];
    PgknobException e = runRefused("comparison", restore -> restoreFile[0] = restore);

    assertSame(UNREACHABLE, e);
    Path dir = restoreFile[0].getParent();
    assertEquals(SessionFolder.RESTORE_FILE, restoreFile[0].getFileName().toString());
    assertEquals(
        "comparison "
            + dir.getFileName()
            + " in "
            + dir
            + "\nnothing was recorded: "
            + dir
            + " is removed\n",
        out.toString());
    assertEquals(List.of(), folders(), "no session folder left behind");
    assertEquals("", err.toString(), "nothing to restore: the server was never opened");
  }

  @Test
  void keepsTheFolderWhenTheSetupRecordedAFileInIt() throws Exception {
    runRefused(
        "session",
        restore -> {
          try {
            Files.writeString(restore, "{}");
          } catch (IOException io) {
            throw new UncheckedIOException(io);
          }
        });

    List<Path> left = folders();
    assertEquals(1, left.size(), left::toString);
    assertTrue(Files.exists(left.get(0).resolve(SessionFolder.RESTORE_FILE)));
    assertTrue(out.toString().startsWith("session " + left.get(0).getFileName() + " in "));
    assertFalse(out.toString().contains("removed"), out::toString);
  }
}
