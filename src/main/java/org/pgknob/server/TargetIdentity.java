package org.pgknob.server;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.nio.file.Path;

/**
 * Which server a restore file belongs to, and how to reach it again after a crash: the folder of a
 * managed cluster, or the JDBC URL (never with a password), user and restart command of an existing
 * server.
 *
 * @param kind {@code managed} or {@code remote}
 * @param clusterDir the managed cluster's folder, else null
 * @param jdbcUrl the existing server's JDBC URL without password, else null
 * @param user the role pgknob connects as (remote), else null
 * @param restartCommand the user's restart command (remote), or null
 * @param restartTimeoutSeconds how long the restart command may take (remote)
 */
public record TargetIdentity(
    String kind,
    String clusterDir,
    String jdbcUrl,
    String user,
    String restartCommand,
    long restartTimeoutSeconds) {
  public static final String MANAGED = "managed";
  public static final String REMOTE = "remote";

  public static TargetIdentity managed(Path clusterDir) {
    return new TargetIdentity(MANAGED, clusterDir.toAbsolutePath().toString(), null, null, null, 0);
  }

  @JsonIgnore
  public boolean isManaged() {
    return MANAGED.equals(kind);
  }

  /** A file-name-safe key: one default restore file per server. */
  public String key() {
    String raw =
        isManaged()
            ? "managed-" + Path.of(clusterDir).getFileName()
            : "remote-" + RemoteAddress.parse(jdbcUrl).hostPort();
    return raw.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  /** True when both name the same server (databases and options of a URL may differ). */
  public boolean sameServer(TargetIdentity other) {
    if (!kind.equals(other.kind)) {
      return false;
    }
    return isManaged()
        ? Path.of(clusterDir).normalize().equals(Path.of(other.clusterDir).normalize())
        : RemoteAddress.parse(jdbcUrl)
            .hostPort()
            .equals(RemoteAddress.parse(other.jdbcUrl).hostPort());
  }

  public String describe() {
    return isManaged() ? "managed cluster " + clusterDir : jdbcUrl;
  }
}
