package org.pgknob.safety;

import java.util.Map;
import org.pgknob.space.PgSetting;
import org.pgknob.space.SearchSpace;

/**
 * What the safety rules need besides a configuration: the space (for the values' units), the
 * server's settings as found before the session changed anything, the RAM, the measured memory of
 * one connection, how many connections the workload keeps busy, and the user's opt-ins.
 *
 * @param space the space the configurations come from
 * @param serverSettings pg_settings by name, read before any change
 * @param ram the RAM to fit in
 * @param perConnectionBytes memory of one idle connection's backend, from {@link
 *     ConnectionOverhead#measure}, or the rules file's fallback
 * @param activeConnections the workload's concurrent clients (e.g. TPROC-C virtual users)
 * @param allowDurabilityTradeoff --allow-durability-tradeoff: synchronous_commit=off allowed
 * @param allowUnsafe --allow-unsafe: fsync=off and full_page_writes=off allowed
 * @param walRoom the room on the WAL's disk at the session's start, or {@link WalRoom#UNKNOWN}
 */
public record SafetyContext(
    SearchSpace space,
    Map<String, PgSetting> serverSettings,
    RamLimit ram,
    long perConnectionBytes,
    int activeConnections,
    boolean allowDurabilityTradeoff,
    boolean allowUnsafe,
    WalRoom walRoom) {
  public SafetyContext {
    serverSettings = Map.copyOf(serverSettings);
    if (activeConnections < 0 || perConnectionBytes < 0) {
      throw new IllegalArgumentException(
          "connections and their memory must not be negative, but got "
              + activeConnections
              + " and "
              + perConnectionBytes);
    }
  }

  /** The same with another room on the WAL's disk. */
  public SafetyContext withWalRoom(WalRoom room) {
    return new SafetyContext(
        space,
        serverSettings,
        ram,
        perConnectionBytes,
        activeConnections,
        allowDurabilityTradeoff,
        allowUnsafe,
        room);
  }

  /** The same with another space (e.g. one track's). */
  public SafetyContext withSpace(SearchSpace other) {
    return new SafetyContext(
        other,
        serverSettings,
        ram,
        perConnectionBytes,
        activeConnections,
        allowDurabilityTradeoff,
        allowUnsafe,
        walRoom);
  }
}
