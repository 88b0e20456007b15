package org.pgknob.optimize;

/**
 * One knob's main effect on a fitted model's prediction (see {@link Bayes#mainEffects()}).
 *
 * @param knob the knob's name
 * @param index first-order Sobol index: the share of the prediction's variance over the space that
 *     this knob's main-effect curve explains, 0 to 1
 * @param rangeFraction (highest - lowest point of that curve) over the prediction's mean, in the
 *     objective's units: comparable with a sweep's range and with the noise; NaN when unknown
 */
public record MainEffect(String knob, double index, double rangeFraction) {}
