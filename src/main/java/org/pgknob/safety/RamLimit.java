package org.pgknob.safety;

import java.util.OptionalLong;
import org.pgknob.PgknobException;
import org.pgknob.server.HostMemory;
import org.pgknob.space.PgUnit;

/**
 * The RAM a configuration must fit in: the least of the host's MemTotal, a cgroup memory limit and
 * {@code --ram} given by the user (to tune for a smaller production box).
 *
 * @param bytes the RAM
 * @param source which of the three it is, for people: "host MemTotal", "cgroup limit", "--ram"
 */
public record RamLimit(long bytes, String source) {
  public RamLimit {
    if (bytes <= 0) {
      throw new IllegalArgumentException("RAM must be positive, but got " + bytes);
    }
  }

  /** For a server on this host: the least of MemTotal, the cgroup limit and {@code userRam}. */
  public static RamLimit of(HostMemory host, OptionalLong userRamBytes) {
    long bytes = host.memTotalBytes();
    String source = "host MemTotal";
    if (host.cgroupLimitBytes() > 0 && (bytes == 0 || host.cgroupLimitBytes() < bytes)) {
      bytes = host.cgroupLimitBytes();
      source = "cgroup limit";
    }
    if (userRamBytes.isPresent() && (bytes == 0 || userRamBytes.getAsLong() < bytes)) {
      bytes = userRamBytes.getAsLong();
      source = "--ram";
    }
    if (bytes <= 0) {
      throw new PgknobException(
          "cannot read the host's memory from /proc/meminfo", "give the server's RAM with --ram");
    }
    return new RamLimit(bytes, source);
  }

  /** For a server on another host, whose memory pgknob cannot read: {@code --ram} is required. */
  public static RamLimit forRemoteServer(OptionalLong userRamBytes) {
    if (userRamBytes.isEmpty()) {
      throw new PgknobException(
          "the server runs on another host, so pgknob cannot read its memory",
          "give its RAM with --ram, e.g. --ram 16GB");
    }
    return new RamLimit(userRamBytes.getAsLong(), "--ram");
  }

  @Override
  public String toString() {
    return PgUnit.readableBytes(bytes) + " (" + source + ")";
  }
}
