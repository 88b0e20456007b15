package org.pgknob.workload;

/**
 * One transaction type's figures over the measured window, as HammerDB's time profile shows them:
 * calls (committed + rolled back), errors, business rollbacks, latency.
 */
public record TransactionProfile(
    String name, long calls, long errors, long rollbacks, LatencySummary latency) {}
