package org.pgknob.workload.tprocc;

import java.util.regex.Pattern;
import org.pgknob.PgknobException;
import org.pgknob.workload.MarkedDatabases;

/**
 * Everything a TPROC-C build and run needs, checked once when made.
 *
 * @param database the live database's name; its pristine copy is {@code <database>_pristine}
 * @param warehouses warehouses to build (TPC-C's scale); runs and resets use what the database
 *     holds
 * @param users virtual users, one connection each
 * @param rampupSeconds time before the measured window
 * @param durationSeconds the measured window
 * @param allWarehouses each user picks a warehouse from its set before every transaction
 * @param keyAndThink TPC-C's keying and thinking times between transactions
 * @param reset how each trial starts
 * @param stopTimeoutSeconds how long users may take to finish their last transaction
 * @param loadThreads warehouses loaded at once
 */
public record TproccSettings(
    String database,
    int warehouses,
    int users,
    int rampupSeconds,
    int durationSeconds,
    boolean allWarehouses,
    boolean keyAndThink,
    ResetMode reset,
    int stopTimeoutSeconds,
    int loadThreads) {

  public static final String DEFAULT_DATABASE = "tprocc";
  public static final int MAX_WAREHOUSES = 10_000;

  /** About the size of one warehouse as the build leaves it. */
  public static final long BYTES_PER_WAREHOUSE = 100L * 1024 * 1024;

  private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,49}");

  /** How each trial starts. */
  public enum ResetMode {
    /** From a fresh copy of the pristine database (CREATE DATABASE ... TEMPLATE). */
    TEMPLATE,
    /** On the database as the previous run left it (it grows from run to run). */
    NONE
  }

  public TproccSettings {
    if (database == null || !NAME.matcher(database).matches()) {
      throw new PgknobException(
          "the database name '" + database + "' is not allowed",
          "use 1 to 50 lower-case letters, digits or underscores, starting with a letter");
    }
    if (warehouses < 1 || warehouses > MAX_WAREHOUSES) {
      throw new PgknobException(
          "--warehouses must be between 1 and " + MAX_WAREHOUSES + ", got " + warehouses,
          "TPROC-C needs at least one warehouse; about 100 MB each");
    }
    if (users < 1) {
      throw new PgknobException("--users must be at least 1, got " + users, "");
    }
    if (rampupSeconds < 0 || durationSeconds < 1) {
      throw new PgknobException(
          "--rampup must be >= 0 s and --duration >= 1 s, got "
              + rampupSeconds
              + " s and "
              + durationSeconds
              + " s",
          "");
    }
    if (stopTimeoutSeconds < 1 || loadThreads < 1) {
      throw new PgknobException("stop timeout and load threads must be at least 1", "");
    }
    if (reset == null) {
      reset = ResetMode.TEMPLATE;
    }
  }

  /** Defaults for {@code warehouses}: one user per warehouse up to the cores, 30 s + 60 s. */
  public static TproccSettings defaults(int warehouses) {
    return new TproccSettings(
        DEFAULT_DATABASE,
        warehouses,
        warehouses,
        30,
        60,
        false,
        false,
        ResetMode.TEMPLATE,
        30,
        Runtime.getRuntime().availableProcessors());
  }

  public TproccSettings withUsers(int n) {
    return new TproccSettings(
        database,
        warehouses,
        n,
        rampupSeconds,
        durationSeconds,
        allWarehouses,
        keyAndThink,
        reset,
        stopTimeoutSeconds,
        loadThreads);
  }

  public TproccSettings withTimes(int rampup, int duration) {
    return new TproccSettings(
        database,
        warehouses,
        users,
        rampup,
        duration,
        allWarehouses,
        keyAndThink,
        reset,
        stopTimeoutSeconds,
        loadThreads);
  }

  public TproccSettings withDatabase(String name) {
    return new TproccSettings(
        name,
        warehouses,
        users,
        rampupSeconds,
        durationSeconds,
        allWarehouses,
        keyAndThink,
        reset,
        stopTimeoutSeconds,
        loadThreads);
  }

  public TproccSettings withOptions(boolean all, boolean keyThink, ResetMode resetMode) {
    return new TproccSettings(
        database,
        warehouses,
        users,
        rampupSeconds,
        durationSeconds,
        all,
        keyThink,
        resetMode,
        stopTimeoutSeconds,
        loadThreads);
  }

  public TproccSettings withLoadThreads(int threads) {
    return new TproccSettings(
        database,
        warehouses,
        users,
        rampupSeconds,
        durationSeconds,
        allWarehouses,
        keyAndThink,
        reset,
        stopTimeoutSeconds,
        threads);
  }

  public TproccSettings withStopTimeout(int seconds) {
    return new TproccSettings(
        database,
        warehouses,
        users,
        rampupSeconds,
        durationSeconds,
        allWarehouses,
        keyAndThink,
        reset,
        seconds,
        loadThreads);
  }

  public String pristineDatabase() {
    return MarkedDatabases.pristineName(database);
  }
}
