package org.pgknob.runs;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What a session's results are judged on: throughput (higher is better) or average latency (lower
 * is better). Named {@code Goal}, not {@code Objective}: {@code optimize.Objective} is the
 * optimizer's metric name and direction, knowing nothing of PostgreSQL; this is the session's
 * choice between its two measured results, as {@code --objective}, the run folder's files and
 * export names ({@code best-restart-tps.conf}) spell it. It lives in {@code runs}, the lowest
 * layer, because summary.json's rows carry it.
 */
public enum Goal {
  /** Transactions per second, checkpoint after the window included: higher is better. */
  TPS("TPS"),
  /** Average latency of the business transactions, in ms: lower is better. */
  LATENCY("latency");

  private final String word;

  Goal(String word) {
    this.word = word;
  }

  /** The name on the command line and in the files: tps, latency. */
  @JsonValue
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The word people read in verdicts and tables: TPS, latency. */
  public String word() {
    return word;
  }

  /** True for latency: a ratio below 1 is a gain. */
  public boolean lowerIsBetter() {
    return this == LATENCY;
  }

  /** The other goal. */
  public Goal other() {
    return this == TPS ? LATENCY : TPS;
  }

  /** The goal a label names, as the command line and the files spell it. */
  public static Goal of(String label) {
    for (Goal g : values()) {
      if (g.label().equals(label)) {
        return g;
      }
    }
    throw new IllegalArgumentException(
        "unknown objective '" + label + "': expected tps or latency");
  }

  /**
   * As {@link #of}, for the files: the empty objective of summary.json's rows that belong to no
   * search (the defaults, PGTune-style) reads as null.
   */
  @JsonCreator
  public static Goal fromJson(String label) {
    return label.isEmpty() ? null : of(label);
  }

  @Override
  public String toString() {
    return label();
  }
}
