package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SharedPostgres;

/**
 * The workload's database on the real shared cluster when it accepts no writes
 * (default_transaction_read_only = on, as a standby would refuse them): it cannot be built, and the
 * one line says why and what to do, not to free disk space.
 */
class ReadOnlyServerTest {
  @AfterEach
  void writable() throws Exception {
    sql("ALTER SYSTEM RESET default_transaction_read_only", "SELECT pg_reload_conf()");
    SharedPostgres.resetSettings();
  }

  @Test
  void aServerThatAcceptsNoWritesFailsTheBuildWithTheFixForThat() throws Exception {
    sql("ALTER SYSTEM SET default_transaction_read_only = on", "SELECT pg_reload_conf()");
    awaitReadOnly();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> args =
        new ArrayList<>(List.of("tprocc", "build", "--warehouses", "1", "--rebuild"));
    args.addAll(SharedPostgres.targetArguments());
    int exit = Cli.run(out, err, args);
    assertEquals(ExitCodes.ERROR, exit, err::toString);
    String text = err.toString();
    assertTrue(
        text.startsWith("pgknob: building the TPROC-C database failed: ")
            && text.contains("read-only transaction")
            && text.contains("the server accepts no writes")
            && text.contains("ALTER ROLE name SET default_transaction_read_only = off")
            && !text.contains("free disk space"),
        text);
    assertEquals(1, text.strip().lines().count(), text);
  }

  private static void sql(String... statements) throws Exception {
    try (Connection conn = SharedPostgres.connect();
        Statement st = conn.createStatement()) {
      for (String statement : statements) {
        st.execute(statement);
      }
    }
  }

  private static void awaitReadOnly() throws Exception {
    for (int i = 0; i < 100; i++) {
      try (Connection conn = SharedPostgres.connect();
          ResultSet rs =
              conn.createStatement().executeQuery("SHOW default_transaction_read_only")) {
        rs.next();
        if (rs.getString(1).equals("on")) {
          return;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("default_transaction_read_only never became on after a reload");
  }
}
