package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a resume takes from its session's start: each option it is not given, never one it is, and
 * nothing for a session from before start-options.json.
 */
class StartOptionsTest {
  @TempDir Path dir;

  private final TargetOptions target = new TargetOptions();
  private final ServerWaitOption serverWait = new ServerWaitOption();
  private final QuietWaitOption quiet = new QuietWaitOption();

  private static final StartOptions STARTED =
      new StartOptions("/root/.pgknob-pw", "ssh db pgknob agent --data-dir /d", true, 3600, 0);

  StartOptionsTest() {
    serverWait.seconds = 300; // picocli's defaults, as a resume given nothing has them
    quiet.seconds = 120;
  }

  @Test
  void aResumeGivenNothingTakesEveryOptionOfTheStart() {
    STARTED.write(dir);

    String taken = StartOptions.read(dir).fillIn(target, serverWait, quiet, option -> false);

    assertEquals(
        "--password-file /root/.pgknob-pw --agent-command 'ssh db pgknob agent --data-dir /d'"
            + " --require-agent --server-wait 3600s --quiet-wait 0s",
        taken);
    assertEquals(Path.of("/root/.pgknob-pw"), target.passwordFile);
    assertEquals("ssh db pgknob agent --data-dir /d", target.agentCommand);
    assertTrue(target.requireAgent);
    assertEquals(3600, serverWait.seconds);
    assertEquals(0, quiet.seconds);
  }

  @Test
  void whatTheResumeIsGivenWins() {
    target.passwordFile = Path.of("/elsewhere/pw");
    target.agentCommand = "pgknob agent --data-dir /other";
    serverWait.seconds = 300; // given explicitly, equal to the default
    quiet.seconds = 60;
    Set<String> given = Set.of("--server-wait", "--quiet-wait");

    String taken = STARTED.fillIn(target, serverWait, quiet, given::contains);

    assertEquals("--require-agent", taken);
    assertEquals(Path.of("/elsewhere/pw"), target.passwordFile);
    assertEquals("pgknob agent --data-dir /other", target.agentCommand);
    assertEquals(300, serverWait.seconds);
    assertEquals(60, quiet.seconds);
  }

  @Test
  void aPasswordFileWithASpaceIsPrintedAsAShellReadsIt() {
    StartOptions started = new StartOptions("/root/db secrets/pw", null, false, 300, 120);

    String taken = started.fillIn(target, serverWait, quiet, option -> false);

    assertEquals("--password-file '/root/db secrets/pw'", taken);
    assertEquals(Path.of("/root/db secrets/pw"), target.passwordFile);
  }

  @Test
  void aSessionFromBeforeTheFileGivesNothing() throws Exception {
    assertNull(StartOptions.read(dir));
    Files.writeString(dir.resolve(StartOptions.FILE), "{\"passwordFile\": ");
    assertNull(StartOptions.read(dir), "a damaged file: the resume's own options, as before");
  }

  @Test
  void theFileHoldsThePasswordFilesPathNeverAPassword() throws Exception {
    Path pw = dir.resolve("pw");
    Files.writeString(pw, "s3cret-never-copied\n");
    target.passwordFile = pw;

    StartOptions.of(target, serverWait, quiet).write(dir);

    String text = Files.readString(dir.resolve(StartOptions.FILE));
    assertTrue(text.contains(pw.toAbsolutePath().toString()), text);
    assertTrue(!text.contains("s3cret"), text);
  }
}
