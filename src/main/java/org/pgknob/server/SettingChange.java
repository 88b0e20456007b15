package org.pgknob.server;

/**
 * One setting a configure or restore changed.
 *
 * @param name the setting
 * @param before its value before, as pg_settings showed it (base value and unit)
 * @param after the value asked for (as given), or {@code (original)} when it went back
 * @param needsRestart true when this change took a restart to take effect
 */
public record SettingChange(String name, String before, String after, boolean needsRestart) {}
