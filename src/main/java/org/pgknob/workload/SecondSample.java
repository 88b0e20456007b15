package org.pgknob.workload;

/**
 * One second of a run: committed business transactions and their average latency. {@code measured}
 * is false during ramp-up and the checkpoint after the window.
 */
public record SecondSample(int second, boolean measured, long committed, double avgLatencyMs) {}
