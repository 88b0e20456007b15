package org.pgknob.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.pgknob.PgknobException;

/** {@link ServerControl} of a managed cluster: pg_ctl, and direct access to its data folder. */
final class ManagedServerControl implements ServerControl {
  private final ManagedCluster cluster;

  ManagedServerControl(ManagedCluster cluster) {
    this.cluster = cluster;
  }

  @Override
  public TargetIdentity identity() {
    return TargetIdentity.managed(cluster.clusterDir());
  }

  @Override
  public String describe() {
    return cluster.describe();
  }

  @Override
  public Connection connect() throws SQLException {
    // The URL is read at each call: a cluster on a free port gets a new one at each start.
    Properties props = cluster.credentials();
    props.setProperty("ApplicationName", ControlPool.APPLICATION_NAME);
    return ControlSession.open(cluster.jdbcUrl("postgres"), props);
  }

  @Override
  public boolean answers(Duration wait) {
    long deadline = System.nanoTime() + wait.toNanos();
    do {
      if (cluster.isRunning()) {
        try (Connection conn = connect()) {
          return true;
        } catch (SQLException e) {
          // starting up or shutting down: try again until the wait ends
        }
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    } while (System.nanoTime() < deadline);
    return false;
  }

  @Override
  public boolean runningWhenOpened() {
    return cluster.wasRunningAtOpen();
  }

  @Override
  public boolean canRestart() {
    return true;
  }

  @Override
  public void restart() {
    cluster.restart();
  }

  @Override
  public Optional<String> readAutoConf(Connection conn) {
    try {
      return Optional.of(Files.readString(autoConfFile()));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  @Override
  public boolean startWithAutoConf(String content) {
    cluster.stop();
    rewriteAutoConf(content);
    cluster.start();
    return true;
  }

  @Override
  public boolean rewriteAutoConf(String content) {
    try {
      // Like ALTER SYSTEM: a temporary file renamed over the old one, owned by the server's user.
      Path tmp = autoConfFile().resolveSibling(AutoConf.FILE_NAME + ".tmp");
      Files.writeString(tmp, content);
      Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
      ServerUser.own(tmp);
      Files.move(
          tmp, autoConfFile(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new PgknobException(
          "cannot rewrite " + autoConfFile() + ": " + e.getMessage(),
          "run pgknob as the user that created the cluster",
          e);
    }
    return true;
  }

  @Override
  public void checkPrivileges(Connection conn, Set<String> names) {
    // pgknob connects to its own cluster as the superuser.
  }

  private Path autoConfFile() {
    return cluster.dataDir().resolve(AutoConf.FILE_NAME);
  }
}
