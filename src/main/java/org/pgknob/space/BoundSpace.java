package org.pgknob.space;

import java.util.LinkedHashMap;
import java.util.Map;
import org.pgknob.PgknobException;

/**
 * A search space checked against one live server: every knob exists there with the same type, a
 * convertible unit, a range inside the server's and enum values the server offers; defaults are the
 * server's boot values, and each knob's context (reload or restart) is the server's.
 *
 * <p>Made by {@link ServerSpaceValidator}. Immutable.
 */
public final class BoundSpace {
  private final SearchSpace space;
  private final Map<String, PgSetting> settings;
  private final int serverMajor;

  BoundSpace(SearchSpace space, Map<String, PgSetting> settings, int serverMajor) {
    this.space = space;
    Map<String, PgSetting> mine = new LinkedHashMap<>();
    for (String name : space.names()) {
      mine.put(name, settings.get(name));
    }
    this.settings = java.util.Collections.unmodifiableMap(mine);
    this.serverMajor = serverMajor;
  }

  public SearchSpace space() {
    return space;
  }

  public int serverMajor() {
    return serverMajor;
  }

  /** The pg_settings row a knob was bound to. */
  public PgSetting setting(String knob) {
    PgSetting s = settings.get(knob);
    if (s == null) {
      throw new PgknobException(
          space.source() + ": no knob named " + knob, "the space has " + space.names());
    }
    return s;
  }

  /** pg_settings.context of a knob: postmaster, sighup, superuser, user, ... */
  public String contextOf(String knob) {
    return setting(knob).context();
  }

  /** True when a change of the knob applies only after a server restart. */
  public boolean needsRestart(String knob) {
    return setting(knob).needsRestart();
  }

  /** The knobs a reload applies: the space of the reload-only track. */
  public SearchSpace reloadOnly() {
    return space.subset(k -> !needsRestart(k.name()));
  }

  /** True when any knob set in {@code config} needs a restart. */
  public boolean needsRestart(Configuration config) {
    return config.values().keySet().stream().anyMatch(k -> space.contains(k) && needsRestart(k));
  }
}
