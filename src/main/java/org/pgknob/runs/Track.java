package org.pgknob.runs;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * How a session's search may apply settings: reload-only (knobs a reload applies) or
 * restart-allowed (every knob). It lives in {@code runs}, the lowest layer, because the run folder
 * spells it: in trials.jsonl, session.json, summary.json and the export files' names.
 */
public enum Track {
  /** Only settings a reload applies: no downtime. Runs first when a session has both. */
  RELOAD,
  /** Every setting, restarting the server where one needs it. */
  RESTART;

  /** The name on the command line and in the files: reload, restart. */
  @JsonValue
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The track a label names, as the command line and the files spell it. */
  public static Track of(String label) {
    for (Track t : values()) {
      if (t.label().equals(label)) {
        return t;
      }
    }
    throw new IllegalArgumentException("unknown track '" + label + "': expected reload or restart");
  }

  /** The track a setting belongs to: restart when applying it needs one, else reload. */
  public static Track applying(boolean needsRestart) {
    return needsRestart ? RESTART : RELOAD;
  }

  /**
   * As {@link #of}, for the files: the empty track of summary.json's rows that belong to no search
   * (the defaults, PGTune-style) reads as null.
   */
  @JsonCreator
  public static Track fromJson(String label) {
    return label.isEmpty() ? null : of(label);
  }

  @Override
  public String toString() {
    return label();
  }
}
