package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import org.junit.jupiter.api.Test;
import org.pgknob.testing.SharedPostgres;

class ManagedClusterTest {
  @Test
  void startsPostgres18AsUnprivilegedUserWithDurableDefaults() throws Exception {
    ManagedCluster cluster = SharedPostgres.cluster();
    try (Connection conn = cluster.connect("postgres");
        ResultSet rs =
            conn.createStatement()
                .executeQuery(
                    "SELECT current_setting('server_version_num')::int,"
                        + " current_setting('fsync'), current_setting('synchronous_commit'),"
                        + " (SELECT count(*) FROM pg_settings WHERE source = 'command line')")) {
      rs.next();
      assertTrue(rs.getInt(1) >= 180000, "server is PostgreSQL 18");
      assertEquals("on", rs.getString(2));
      assertEquals("on", rs.getString(3));
      assertEquals(0, rs.getInt(4), "no setting hidden on the command line");
    }
    assertTrue(cluster.postmasterPid().isPresent());
  }
}
