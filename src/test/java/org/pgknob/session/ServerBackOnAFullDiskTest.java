package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.server.RestoreNotRecordedException;
import org.pgknob.server.RestoreNotRecordedFixture;
import org.pgknob.server.Target;
import org.pgknob.testing.SharedPostgres;

/**
 * A server that answers again after an outage, while the run folder's disk is full: the restore
 * puts its settings back but cannot record it. The session says just that, once: not "putting its
 * original settings back failed: the original settings ... are back", and not a second restore that
 * says it again.
 */
class ServerBackOnAFullDiskTest {
  @TempDir Path dir;

  /** The real server, except that each restore puts the settings back and cannot record it. */
  private Target restoresWithoutRecord(AtomicInteger restores) {
    Target real = SharedPostgres.cluster();
    RestoreNotRecordedException notRecorded =
        RestoreNotRecordedFixture.onAFullDisk(real.describe(), dir.resolve("restore.json"));
    return (Target)
        Proxy.newProxyInstance(
            Target.class.getClassLoader(),
            new Class<?>[] {Target.class},
            (proxy, method, args) -> {
              if (method.getName().equals("restoreOriginals")) {
                restores.incrementAndGet();
                throw notRecorded;
              }
              try {
                return method.invoke(real, args);
              } catch (InvocationTargetException e) {
                throw e.getCause();
              }
            });
  }

  @Test
  void theWaitSaysTheSettingsAreBackAndOnlyTheirRecordFailed() {
    AtomicInteger restores = new AtomicInteger();
    Target target = restoresWithoutRecord(restores);
    StringWriter console = new StringWriter();
    ServerWait wait =
        new ServerWait(
            target,
            Duration.ofMinutes(1),
            new ProgressPrinter(new PrintWriter(console, true), false),
            Clock.systemUTC(),
            dir);

    RestoreNotRecordedException e =
        assertThrows(
            RestoreNotRecordedException.class,
            () -> wait.await(Clock.systemUTC().instant(), "connection refused"));

    assertTrue(
        e.getMessage()
            .startsWith("the original settings of " + target.describe() + " are back, but the"),
        e.getMessage());
    assertFalse(e.getMessage().contains("failed"), e.getMessage());
    assertEquals(1, restores.get());
  }

  @Test
  void theSessionsFailureHandlerDoesNotRestoreAgainAndSaysTheSettingsAreBack() {
    AtomicInteger restores = new AtomicInteger();
    Target target = restoresWithoutRecord(restores);
    RestoreNotRecordedException failure =
        RestoreNotRecordedFixture.onAFullDisk(target.describe(), dir.resolve("restore.json"));
    StringWriter out = new StringWriter();

    RuntimeException thrown =
        SessionRunner.restoreAfterFailure(target, new PrintWriter(out, true), failure);

    assertSame(failure, thrown);
    assertEquals(0, restores.get(), "the settings are back already");
    assertEquals("the original settings of " + target.describe() + " are back\n", out.toString());
  }
}
