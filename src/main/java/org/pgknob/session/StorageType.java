package org.pgknob.session;

import java.util.Locale;
import org.pgknob.PgknobException;

/**
 * The kind of disk the data lives on, as pgtune and timescaledb-tune ask for it. NETWORK is
 * pgtune's "san" (network or SAN storage).
 */
public enum StorageType {
  HDD,
  SSD,
  NETWORK,
  NVME;

  public static StorageType parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    return switch (t) {
      case "hdd" -> HDD;
      case "ssd" -> SSD;
      case "network", "san" -> NETWORK;
      case "nvme" -> NVME;
      default ->
          throw new PgknobException(
              "unknown storage type '" + text + "'", "use ssd, hdd or network (also nvme)");
    };
  }

  /** Lower-case name as users write it (ssd, hdd, network, nvme). */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
