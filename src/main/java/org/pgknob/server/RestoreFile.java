package org.pgknob.server;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.pgknob.AtomicFiles;
import org.pgknob.Json;
import org.pgknob.PgknobException;

/**
 * What pgknob needs to put a server back as it found it, written before every change: the server,
 * the original settings, and the settings applied on top of them.
 *
 * <p>Written atomically (temporary file, fsync, rename, fsync of the folder), so after a crash or
 * kill -9 it holds either the state before or after the last write, never half of one.
 *
 * @param identity the server
 * @param state {@code changing} while a change is in flight, {@code applied} after it, {@code
 *     restored} once the original settings are back
 * @param snapshot the original settings
 * @param applied the settings pgknob applied on top of the originals (last completed change)
 * @param pending the settings of a change in flight, else empty
 * @param updatedAt when this was written
 * @param runningBefore true when the server was running before the pgknob that made the first
 *     change opened it: a restore then leaves it running, even when a kill -9 left it stopped
 *     between a stop and a start; null in files written before this was recorded
 * @param stuck settings the last restore could not put back, with the server's reason: the next
 *     restore retries them, changes leave them alone
 */
public record RestoreFile(
    TargetIdentity identity,
    String state,
    SettingsSnapshot snapshot,
    Map<String, String> applied,
    Map<String, String> pending,
    Instant updatedAt,
    Boolean runningBefore,
    Map<String, String> stuck) {
  public static final String CHANGING = "changing";
  public static final String APPLIED = "applied";
  public static final String RESTORED = "restored";
  public static final String FILE_NAME = "restore.json";

  public RestoreFile {
    applied = applied == null ? Map.of() : new LinkedHashMap<>(applied);
    pending = pending == null ? Map.of() : new LinkedHashMap<>(pending);
    stuck = stuck == null ? Map.of() : new LinkedHashMap<>(stuck);
    snapshot = snapshot == null ? SettingsSnapshot.empty() : snapshot;
  }

  /** The restore file of {@code pgknob apply} for a server: PGKNOB_HOME/restore/KEY.json. */
  public static Path defaultPath(TargetIdentity identity) {
    return PgknobHome.resolve().resolve("restore").resolve(identity.key() + ".json");
  }

  /** True when a restore must leave the server running (see {@code runningBefore}). */
  @JsonIgnore
  public boolean leaveRunning() {
    return Boolean.TRUE.equals(runningBefore);
  }

  @JsonIgnore
  public boolean isRestored() {
    return RESTORED.equals(state);
  }

  /**
   * True when no change stands on top of the originals: the last change completed with nothing
   * applied (a first change that failed and was rolled back) and none is in flight or stuck.
   */
  @JsonIgnore
  public boolean nothingToPutBack() {
    return APPLIED.equals(state) && applied.isEmpty() && pending.isEmpty() && stuck.isEmpty();
  }

  RestoreFile withState(
      String newState,
      SettingsSnapshot newSnapshot,
      Map<String, String> newApplied,
      Map<String, String> newPending) {
    return new RestoreFile(
        identity,
        newState,
        newSnapshot,
        newApplied,
        newPending,
        Instant.now(),
        runningBefore,
        stuck);
  }

  RestoreFile withStuck(Map<String, String> newStuck) {
    return new RestoreFile(
        identity, state, snapshot, applied, pending, updatedAt, runningBefore, newStuck);
  }

  public static RestoreFile read(Path file) {
    try {
      return Json.mapper().readValue(Files.readString(file), RestoreFile.class);
    } catch (NoSuchFileException e) {
      throw new PgknobException(
          "no restore file at " + file,
          "give the run folder of the session to restore, or the restore.json file itself");
    } catch (JsonProcessingException e) {
      // Jackson's own message spans lines and names its classes; the line is what helps.
      JsonLocation at = e.getLocation();
      throw new PgknobException(
          "the restore file "
              + file
              + " is damaged"
              + (at == null || at.getLineNr() < 1 ? "" : " at line " + at.getLineNr())
              + ", so pgknob cannot tell the original settings from it",
          "put back what pgknob changed by hand (ALTER SYSTEM RESET name; SELECT"
              + " pg_reload_conf()), then move the file away",
          e);
    } catch (IOException e) {
      throw new PgknobException(
          "cannot read the restore file " + file + ": " + e.getMessage(),
          "check the file; if it was damaged, compare the server's postgresql.auto.conf by hand",
          e);
    }
  }

  /** Writes this file atomically and durably, readable by its owner only. */
  public void write(Path file) {
    try {
      AtomicFiles.write(
          file, Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsBytes(this), true);
    } catch (IOException | UncheckedIOException e) {
      // the disk's own words ("No space left on device"), not the wrapper's "cannot write FILE"
      Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
      throw new PgknobException(
          "cannot write the restore file " + file + ": " + cause.getMessage(),
          "pgknob changes nothing without it; check the folder is writable and has space",
          e);
    }
  }
}
