package org.pgknob.session;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What kind of storage holds the data folder: the file system, its device, and whether the device
 * says it is rotational (/sys/block/DEV/queue/rotational). A trial's result means little without
 * its hardware; this is what the report and the PGTune-style configuration use.
 */
final class StorageProbe {
  private StorageProbe() {}

  /** A line such as "ext4 on /dev/vda1 (ssd)", or "unknown" for a server on another host. */
  static String describe(String dataDirectory) {
    if (dataDirectory == null) {
      return "unknown (server on another host)";
    }
    try {
      FileStore store = Files.getFileStore(Path.of(dataDirectory));
      return store.type() + " on " + store.name() + " (" + type(dataDirectory).label() + ")";
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  /** SSD unless the device says it is rotational; network and unknown storage count as SSD. */
  static StorageType type(String dataDirectory) {
    if (dataDirectory == null) {
      return StorageType.SSD;
    }
    try {
      String device =
          Path.of(Files.getFileStore(Path.of(dataDirectory)).name()).getFileName().toString();
      String disk = device.replaceAll("p?\\d+$", "");
      Path rotational = Path.of("/sys/block", disk, "queue", "rotational");
      if (Files.isReadable(rotational) && Files.readString(rotational).trim().equals("1")) {
        return StorageType.HDD;
      }
    } catch (IOException | RuntimeException e) {
      // fall through: unknown storage is treated as solid state
    }
    return StorageType.SSD;
  }
}
