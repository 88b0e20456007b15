package org.pgknob.session;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.pgknob.PgknobException;
import org.pgknob.server.RestoreNotRecordedException;
import org.pgknob.server.ServerProbe;
import org.pgknob.server.Target;
import org.pgknob.trial.TrialResult;

/**
 * What a session does when its server stops answering mid-trial (a dropped link, a host or server
 * restarting): it neither goes on blindly nor gives up at once. It says so in one line, polls the
 * server with backoff (1 s, 2 s, 4 s ... at most 15 s apart) for up to {@code --server-wait}, and
 * when the server answers again puts the original settings back, as the end of a session does, so
 * the next trial starts from the server as it was found; the session then goes on, the interrupted
 * trial logged as failed with its cause. When the wait ends first, the session stops, its restore
 * file pending, naming {@code pgknob restore} and {@code pgknob resume}.
 *
 * <p>pgknob's own managed cluster is not waited for: nobody else would start it, and the session's
 * end starts it with its original settings.
 */
final class ServerWait {
  static final Duration DEFAULT = Duration.ofMinutes(5);
  private static final long FIRST_POLL_MILLIS = 1000;
  private static final long LONGEST_POLL_MILLIS = 15_000;

  /** A probe whose connection hangs counts as unanswered after this long. */
  private static final long PROBE_MILLIS = 15_000;

  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private final Target target;
  private final Duration longest;
  private final ProgressPrinter progress;
  private final Clock clock;
  private final Path sessionDir;

  ServerWait(
      Target target, Duration longest, ProgressPrinter progress, Clock clock, Path sessionDir) {
    this.target = target;
    this.longest = longest;
    this.progress = progress;
    this.clock = clock;
    this.sessionDir = sessionDir;
  }

  /**
   * Why the server cannot be reached now, or empty when it answers or is pgknob's own cluster (the
   * failure is then not one that waiting mends).
   */
  Optional<String> unreachable() {
    if (target.identity().isManaged()) {
      return Optional.empty();
    }
    return ServerProbe.unreachable(target);
  }

  /**
   * Waits for the server, unreachable since {@code since} for {@code cause}, and when it answers
   * puts its original settings back.
   *
   * @return how the server came back, to tell the interrupted trial's story
   * @throws ServerUnreachableException when the wait ends before the server answers
   */
  Comeback await(Instant since, String cause) {
    progress.note(
        "pgknob: "
            + target.describe()
            + " is unreachable since "
            + TIME.format(since)
            + " ("
            + cause
            + "); waiting up to "
            + asOption(longest)
            + " for it (--server-wait), then its original settings come back");
    Instant deadline = since.plus(longest);
    long pause = FIRST_POLL_MILLIS;
    ExecutorService prober =
        Executors.newCachedThreadPool(
            r -> {
              Thread t = new Thread(r, "pgknob-server-wait");
              t.setDaemon(true);
              return t;
            });
    try {
      while (true) {
        long left = Duration.between(clock.instant(), deadline).toMillis();
        if (left <= 0) {
          throw gaveUp(since, cause);
        }
        sleep(Math.min(pause, left));
        pause = Math.min(2 * pause, LONGEST_POLL_MILLIS);
        left = Duration.between(clock.instant(), deadline).toMillis();
        if (answers(prober, Math.max(1, Math.min(left, PROBE_MILLIS)))) {
          break;
        }
      }
    } finally {
      prober.shutdownNow();
    }
    Instant back = clock.instant();
    // Up for longer than it was out of reach: the server never went down, the way to it did.
    OptionalDouble uptime = ServerProbe.uptimeSeconds(target);
    boolean stayedUp =
        uptime.isPresent()
            && uptime.getAsDouble() >= Duration.between(since, back).toMillis() / 1000.0;
    try {
      target.restoreOriginals();
    } catch (RestoreNotRecordedException e) {
      throw e; // the settings are back: only their record failed, as its message says
    } catch (PgknobException e) {
      throw new PgknobException(
          target.describe()
              + " answers again, but putting its original settings back failed: "
              + e.getMessage(),
          e.fix().isEmpty() ? "run: pgknob restore " + sessionDir : e.fix(),
          e);
    }
    progress.note(
        "pgknob: "
            + target.describe()
            + " answers again at "
            + TIME.format(back)
            + (stayedUp ? " (it stayed up: the way to it was down)" : " (it restarted meanwhile)")
            + "; its original settings are back and the session goes on");
    return new Comeback(since, back, stayedUp);
  }

  /**
   * How the server came back.
   *
   * @param since when it stopped answering
   * @param back when it answered again
   * @param stayedUp whether its postmaster ran all along (then the link, not the configuration,
   *     failed the trial)
   */
  record Comeback(Instant since, Instant back, boolean stayedUp) {
    /** The interrupted trial as the session logs it. */
    TrialResult explain(TrialResult trial) {
      String when =
          "the server was unreachable from " + TIME.format(since) + " to " + TIME.format(back);
      return stayedUp
          ? trial.asUnreachable(
              when + " and stayed up (a dropped link, not this configuration): " + trial.reason())
          : trial.asCrashed(when + " and restarted meanwhile: " + trial.reason());
    }
  }

  /** The interrupted trial when the server did not come back within the wait. */
  TrialResult explainGaveUp(TrialResult trial, Instant since) {
    return trial.asUnreachable(
        "the server was unreachable from "
            + TIME.format(since)
            + " to the end of --server-wait "
            + asOption(longest)
            + ": "
            + trial.reason());
  }

  private ServerUnreachableException gaveUp(Instant since, String cause) {
    return new ServerUnreachableException(
        target.describe()
            + " has not answered since "
            + TIME.format(since)
            + " ("
            + cause
            + "), and --server-wait "
            + asOption(longest)
            + " is over; the session is stopped and the server may still run a trial's settings",
        "once it answers: pgknob restore "
            + sessionDir
            + " puts its original settings back, pgknob resume "
            + sessionDir
            + " continues the session");
  }

  /** A wait as --server-wait takes it: 90s, 5m, 1h. */
  static String asOption(Duration d) {
    long s = d.toSeconds();
    if (s >= 3600 && s % 3600 == 0) {
      return s / 3600 + "h";
    }
    return s >= 60 && s % 60 == 0 ? s / 60 + "m" : s + "s";
  }

  private boolean answers(ExecutorService prober, long millis) {
    CompletableFuture<Boolean> probe =
        CompletableFuture.supplyAsync(() -> ServerProbe.unreachable(target).isEmpty(), prober);
    try {
      return probe.get(millis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      probe.cancel(true);
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PgknobException("interrupted while waiting for the server", "");
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PgknobException("interrupted while waiting for the server", "");
    }
  }
}
