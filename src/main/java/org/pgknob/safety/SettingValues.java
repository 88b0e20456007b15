package org.pgknob.safety;

import java.util.Map;
import org.pgknob.PgknobException;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.PgSetting;
import org.pgknob.space.PgUnit;
import org.pgknob.space.SearchSpace;

/**
 * The values a configuration gives the server's settings, in base units: bytes for memory,
 * microseconds for time, the number itself otherwise. A setting the configuration leaves alone has
 * the server's value as found before the session changed anything.
 *
 * <p>Values PostgreSQL derives from others are resolved as the server does: {@code wal_buffers =
 * -1} is 1/32 of shared_buffers, at least 64kB and at most one WAL segment (xlog.c,
 * XLOGChooseNumBuffers); {@code autovacuum_work_mem = -1} is maintenance_work_mem.
 */
final class SettingValues {
  private static final double PAGE_BYTES = 8192;

  private final Configuration config;
  private final SearchSpace space;
  private final Map<String, PgSetting> server;

  SettingValues(Configuration config, SearchSpace space, Map<String, PgSetting> server) {
    this.config = config;
    this.space = space;
    this.server = server;
  }

  /** Whether the configuration or the server has the setting. */
  boolean has(String name) {
    return config.has(name) || server.containsKey(name);
  }

  /** The setting's value as text (enum and bool settings), lower case. */
  String text(String name) {
    if (config.has(name)) {
      return config.get(name).toString();
    }
    PgSetting s = server.get(name);
    return s == null ? "" : s.setting().toLowerCase(java.util.Locale.ROOT);
  }

  /** The setting's value in base units (bytes, microseconds, or plain), derived values resolved. */
  double number(String name) {
    double v = raw(name);
    if (name.equals("wal_buffers") && (v == -1 || (!config.has(name) && serverChoseWalBuffers()))) {
      double segment = raw("wal_segment_size");
      double auto = Math.floor(raw("shared_buffers") / PAGE_BYTES / 32) * PAGE_BYTES;
      return Math.max(8 * PAGE_BYTES, Math.min(segment, auto));
    }
    if (v == -1 && name.equals("autovacuum_work_mem")) {
      return number("maintenance_work_mem");
    }
    return v;
  }

  /**
   * True when the server sized wal_buffers itself (-1): pg_settings then shows the size it chose
   * for its current shared_buffers, with source default (or override when -1 was written in a
   * file), and a configuration with other shared_buffers gets another size.
   */
  private boolean serverChoseWalBuffers() {
    PgSetting s = server.get("wal_buffers");
    return s != null
        && "-1".equals(s.bootVal())
        && (s.source().equals("default") || s.source().equals("override"));
  }

  private double raw(String name) {
    if (config.has(name) && space.contains(name)) {
      Knob k = space.knob(name);
      Object value = config.get(name);
      if (!(value instanceof Number n)) {
        throw new PgknobException(
            "the safety rules use " + name + " as a number, but it is " + value,
            "use it only in durability rules");
      }
      return inBase(n.doubleValue(), PgUnit.parse(k.unit()).orElse(PgUnit.NONE));
    }
    PgSetting s = server.get(name);
    if (s == null) {
      throw new PgknobException(
          "the safety rules use " + name + ", which this server does not have",
          "fix the safety rules file");
    }
    double v;
    try {
      v = Double.parseDouble(s.setting());
    } catch (NumberFormatException e) {
      throw new PgknobException(
          "the safety rules use " + name + " as a number, but the server's value is " + s.setting(),
          "use it only in durability rules");
    }
    return inBase(v, PgUnit.parse(s.unit()).orElse(PgUnit.NONE));
  }

  /** Negative values are special (-1 = derived) and keep no unit. */
  private static double inBase(double v, PgUnit unit) {
    return v < 0 ? v : v * unit.base();
  }
}
