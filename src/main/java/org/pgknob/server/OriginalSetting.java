package org.pgknob.server;

/**
 * A setting as pgknob found it before its first change.
 *
 * @param name the setting
 * @param setting its value in the base unit, as pg_settings showed it
 * @param unit the base unit, or null
 * @param vartype bool, integer, real, string or enum
 * @param context its pg_settings context (postmaster: a restart is needed)
 * @param source where the value came from (default, configuration file, ...)
 * @param inAutoConf true when postgresql.auto.conf held a value for it
 * @param autoConfValue that value, as written in postgresql.auto.conf, else null
 * @param pendingRestart true when the setting already waited for a restart
 */
public record OriginalSetting(
    String name,
    String setting,
    String unit,
    String vartype,
    String context,
    String source,
    boolean inAutoConf,
    String autoConfValue,
    boolean pendingRestart) {

  /** The statement that brings this setting's ALTER SYSTEM state back. */
  String restoreStatement() {
    return inAutoConf
        ? SqlQuoting.alterSystemSet(name, autoConfValue)
        : SqlQuoting.alterSystemReset(name);
  }

  /**
   * True when the original value can be checked after a restore. A setting that was at its built-in
   * default may be derived from others (wal_buffers = -1 is 1/32 of shared_buffers), so its
   * original figure holds only while they are unchanged: ALTER SYSTEM RESET alone restores it.
   */
  boolean verifiable() {
    return !pendingRestart && (inAutoConf || !"default".equals(source));
  }

  ServerSetting asSetting() {
    return new ServerSetting(
        name, setting, unit, vartype, context, null, null, null, null, null, source, null, false);
  }

  String display() {
    return SettingValue.withUnit(asSetting(), setting);
  }
}
