package org.pgknob.report;

import java.awt.Color;
import java.util.Map;

/**
 * Colours by meaning, so a track or metric has the same colour in every chart of a report: reload
 * is always blue, restart always orange. Colour-blind-safe (Okabe-Ito).
 */
public final class Palette {
  private static final Map<String, Color> BY_KEY =
      Map.ofEntries(
          Map.entry("reload", new Color(0x00, 0x72, 0xB2)),
          Map.entry("restart", new Color(0xE6, 0x9F, 0x00)),
          Map.entry("baseline", new Color(0x59, 0x59, 0x59)),
          Map.entry("pgtune", new Color(0x00, 0x9E, 0x73)),
          Map.entry("validation", new Color(0xCC, 0x79, 0xA7)),
          Map.entry("front", new Color(0x00, 0x00, 0x00)),
          Map.entry("limit", new Color(0xB3, 0x26, 0x1E)),
          Map.entry("primary", new Color(0x00, 0x72, 0xB2)),
          Map.entry("secondary", new Color(0xD5, 0x5E, 0x00)),
          Map.entry("tertiary", new Color(0x00, 0x9E, 0x73)));

  /** The noise band's fill, drawn translucent over the plot. */
  public static final Color NOISE = new Color(0x99, 0x99, 0x99, 0x40);

  /** Vertical markers: checkpoints, failures, guardrail trips. */
  public static final Color MARKER = new Color(0xD5, 0x5E, 0x00);

  /** Ranges on the x axis (the measured window, the checkpoint after it), in marking order. */
  public static final java.util.List<Color> RANGES =
      java.util.List.of(new Color(0x56, 0xB4, 0xE9, 0x30), new Color(0xE6, 0x9F, 0x00, 0x40));

  /** Light shades for ranges on the x axis that mean something (the phases of a session). */
  private static final Map<String, Color> SHADES =
      Map.of(
          "baseline", new Color(0x99, 0x99, 0x99, 0x30),
          "sweep", new Color(0x56, 0xB4, 0xE9, 0x30),
          "bayes", new Color(0xE6, 0x9F, 0x00, 0x30),
          "validation", new Color(0xCC, 0x79, 0xA7, 0x30),
          "pgtune", new Color(0x00, 0x9E, 0x73, 0x30));

  private Palette() {}

  /** The translucent shade of {@code key} for an x range; unknown keys a light grey. */
  public static Color shade(String key) {
    return SHADES.getOrDefault(key, new Color(0x88, 0x88, 0x88, 0x20));
  }

  /** The colour of {@code key}; unknown keys get a neutral grey. */
  public static Color colour(String key) {
    return BY_KEY.getOrDefault(key, new Color(0x88, 0x88, 0x88));
  }

  /** The colour as CSS, e.g. {@code #0072b2}. */
  public static String css(String key) {
    Color c = colour(key);
    return String.format(
        java.util.Locale.ROOT, "#%02x%02x%02x", c.getRed(), c.getGreen(), c.getBlue());
  }
}
