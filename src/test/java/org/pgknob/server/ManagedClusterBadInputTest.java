package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;
import org.pgknob.testing.SharedPostgres;

class ManagedClusterBadInputTest {
  @Test
  void refusesADataFolderThatIsNotEmptyAndHoldsNoCluster() throws Exception {
    Path home = PgknobHome.resolve();
    Path dir = Files.createTempDirectory(Files.createDirectories(home), "not-a-cluster-");
    try {
      Files.createDirectories(dir.resolve("data"));
      Files.writeString(dir.resolve("data").resolve("notes.txt"), "mine");
      PgknobException e =
          assertThrows(
              PgknobException.class,
              () -> ManagedCluster.open(dir, SharedPostgres.cluster().binaries(), 0));
      assertTrue(
          e.getMessage().contains("is not empty and holds no PostgreSQL cluster"), e.getMessage());
    } finally {
      PgknobHome.deleteTree(dir);
    }
  }

  @Test
  void refusesAPortInUse() throws Exception {
    Path home = PgknobHome.resolve();
    Path dir = Files.createTempDirectory(Files.createDirectories(home), "busy-port-");
    try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      ManagedCluster cluster =
          ManagedCluster.open(dir, SharedPostgres.cluster().binaries(), busy.getLocalPort());
      PgknobException e = assertThrows(PgknobException.class, cluster::start);
      assertTrue(
          e.getMessage()
              .contains("port " + busy.getLocalPort() + " on 127.0.0.1 is already in use"),
          e.getMessage());
    } finally {
      PgknobHome.deleteTree(dir);
    }
  }
}
