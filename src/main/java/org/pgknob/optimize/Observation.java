package org.pgknob.optimize;

import org.pgknob.space.Configuration;

/** One observed trial: a configuration and what it gave. */
public record Observation(Configuration configuration, Outcome outcome) {}
