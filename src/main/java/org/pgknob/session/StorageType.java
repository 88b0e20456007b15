package org.pgknob.session;

import java.util.Locale;
import org.pgknob.PgknobException;

/** The kind of disk the data lives on, as PGTune asks for it. */
public enum StorageType {
  HDD,
  SSD,
  SAN,
  NVME;

  public static StorageType parse(String text) {
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new PgknobException(
          "unknown storage type '" + text + "'", "use one of ssd, hdd, san, nvme");
    }
  }

  /** Lower-case name as users write it (ssd, hdd, san, nvme). */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
