package org.pgknob.optimize;

import org.pgknob.space.Configuration;

/**
 * The configuration an optimizer currently believes best.
 *
 * @param configuration as observed
 * @param predictedValue the model's estimate of its objective value (the observed mean for
 *     optimizers without a model)
 * @param observedMean the mean of its observed values
 * @param runs how many times it was observed with a value
 */
public record Incumbent(
    Configuration configuration, double predictedValue, double observedMean, int runs) {}
