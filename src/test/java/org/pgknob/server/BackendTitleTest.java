package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Process titles as PostgreSQL 15 to 18 set them (seen with ps on this machine's clusters). */
class BackendTitleTest {
  @Test
  void aClientBackendsTitleNamesItsDatabaseWithOrWithoutClusterNameAndActivity() {
    assertEquals(
        Optional.of("postgres"),
        BackendTitle.clientDatabase("postgres: postgres postgres 127.0.0.1(52808) SELECT"));
    assertEquals(
        Optional.of("tprocc"),
        BackendTitle.clientDatabase("postgres: 15/main: tuner tprocc [local] idle in transaction"));
    assertEquals(
        Optional.of("reports"),
        BackendTitle.clientDatabase("postgres: app reports 10.0.0.7(40112)"),
        "update_process_title off: no activity");
    assertEquals(
        Optional.of("postgres"),
        BackendTitle.clientDatabase(
            "postgres: postgres postgres 127.0.0.1(35224) DROP DATABASE waiting for 0/5E2C4E80"));
  }

  @Test
  void theServersOwnProcessesAreNoClients() {
    for (String title :
        new String[] {
          "postgres: checkpointer",
          "postgres: background writer",
          "postgres: walwriter",
          "postgres: io worker 1",
          "postgres: autovacuum launcher",
          "postgres: autovacuum worker tprocc",
          "postgres: logical replication launcher",
          "postgres: walsender replicator 10.0.0.2(51234) streaming 0/3000148",
          "postgres: 15/main: walsender replicator [local] streaming 0/3000148",
          "postgres: pg_cron launcher",
          "postgres: parallel worker for PID 13765",
          "/usr/lib/postgresql/18/bin/postgres -D /srv/pg/data",
          ""
        }) {
      assertEquals(Optional.empty(), BackendTitle.clientDatabase(title), title);
    }
  }

  @Test
  void aParallelWorkerNamesItsLeader() {
    assertEquals(
        OptionalLong.of(13765),
        BackendTitle.parallelLeader("postgres: parallel worker for PID 13765"));
    assertEquals(
        OptionalLong.of(42),
        BackendTitle.parallelLeader("postgres: 15/main: parallel worker for PID 42"));
    assertEquals(
        OptionalLong.empty(),
        BackendTitle.parallelLeader("postgres: postgres postgres 127.0.0.1(52808) SELECT"));
  }
}
