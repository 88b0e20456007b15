package org.pgknob.session;

import java.util.LinkedHashMap;
import java.util.Map;
import org.pgknob.PgknobException;

/**
 * What the user says about the machine for the PGTune-style configuration, as pgtune and
 * timescaledb-tune take it; each null means "measure it": the storage from the data folder's device
 * (a virtio disk reports itself rotational, so a VM on SSD needs {@code --storage ssd}), the cores
 * from the host, max_connections from the server.
 *
 * @param storage ssd, hdd, network (also san, nvme), or null
 * @param cpus cores to size parallel workers and work_mem for, or null
 * @param connections max_connections to plan for (set, and used in work_mem), or null
 */
public record PgTuneOptions(StorageType storage, Integer cpus, Integer connections) {
  public static final PgTuneOptions MEASURED = new PgTuneOptions(null, null, null);

  public PgTuneOptions {
    if (cpus != null && cpus < 1) {
      throw new PgknobException("--cpus must be at least 1, but got " + cpus, "give 1 or more");
    }
    if (connections != null && connections < 1) {
      throw new PgknobException(
          "--connections must be at least 1, but got " + connections, "give 1 or more");
    }
  }

  /** As session.json keeps them: only what was given. */
  Map<String, Object> toMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    if (storage != null) {
      m.put("storage", storage.label());
    }
    if (cpus != null) {
      m.put("cpus", cpus);
    }
    if (connections != null) {
      m.put("connections", connections);
    }
    return m;
  }

  static PgTuneOptions fromMap(Object value) {
    if (!(value instanceof Map<?, ?> m)) {
      return MEASURED; // sessions written before these options existed
    }
    return new PgTuneOptions(
        m.get("storage") == null ? null : StorageType.parse(m.get("storage").toString()),
        m.get("cpus") == null ? null : ((Number) m.get("cpus")).intValue(),
        m.get("connections") == null ? null : ((Number) m.get("connections")).intValue());
  }
}
