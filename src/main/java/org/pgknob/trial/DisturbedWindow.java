package org.pgknob.trial;

import java.util.Locale;

/**
 * A trial's first window, which other processes disturbed, set aside when the trial ran its window
 * again after the host went quiet ({@link DisturbedRepeat}). Kept in trials.jsonl so that what was
 * set aside, and why, stays on record; no figure of the session reads it.
 *
 * @param tps the set-aside window's TPS
 * @param avgLatencyMs its mean latency, in ms (0 when the workload gave none)
 * @param foreignCpuAvgCores other processes' mean CPU over it, in cores
 * @param hostCores the host's cores
 * @param quietWaitSeconds how long the trial then waited for the host to go quiet
 */
public record DisturbedWindow(
    double tps,
    double avgLatencyMs,
    double foreignCpuAvgCores,
    int hostCores,
    double quietWaitSeconds) {

  /**
   * "ran again: its first window, 1541.5 TPS, ran while other processes used 1.0 of 2 cores, and
   * the host was quiet 12 s later"
   */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "ran again: its first window, %.1f TPS, ran while other processes used %.1f of %d cores,"
            + " and the host was quiet %.0f s later",
        tps,
        foreignCpuAvgCores,
        hostCores,
        quietWaitSeconds);
  }
}
