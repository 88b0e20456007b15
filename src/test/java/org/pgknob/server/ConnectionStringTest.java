package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.PgknobException;

class ConnectionStringTest {
  @TempDir Path home;

  @Test
  void uriAndConninfoBecomeJdbcUrls() {
    assertEquals(
        "jdbc:postgresql://db:5433/app?user=tuner&sslmode=require",
        ConnectionString.toJdbcUrl("postgresql://tuner@db:5433/app?sslmode=require"));
    assertEquals("jdbc:postgresql://db/postgres", ConnectionString.toJdbcUrl("postgres://db"));
    assertEquals(
        "jdbc:postgresql://[::1]:5432/postgres",
        ConnectionString.toJdbcUrl("postgresql://[::1]:5432"));
    assertEquals(
        "jdbc:postgresql://db:5432/my%20db?user=tuner",
        ConnectionString.toJdbcUrl("host=db port=5432 dbname='my db' user=tuner"));
    assertEquals(
        "jdbc:postgresql://db:5432/postgres",
        ConnectionString.toJdbcUrl("jdbc:postgresql://db:5432/postgres"));
    RemoteAddress a = RemoteAddress.parse("host=db port=6000 user=tuner dbname=app");
    assertEquals("db", a.host());
    assertEquals(6000, a.port());
    assertEquals("app", a.database());
    assertEquals("tuner", a.user());
  }

  @Test
  void passwordsInsideAreRefusedWithTheSafeWays() {
    for (String text :
        new String[] {
          "postgresql://tuner:secret@db/app",
          "postgresql://tuner@db/app?password=secret",
          "host=db user=tuner password=secret"
        }) {
      PgknobException e =
          assertThrows(PgknobException.class, () -> ConnectionString.toJdbcUrl(text), text);
      assertTrue(e.oneLine().contains("carries a password"), e.oneLine());
      assertTrue(e.oneLine().contains("PGPASSWORD, ~/.pgpass or --password-file"), e.oneLine());
      assertTrue(!e.oneLine().contains("secret"), e.oneLine());
    }
  }

  @Test
  void whatCannotBePassedOnIsRefused() {
    assertThrows(PgknobException.class, () -> ConnectionString.toJdbcUrl("host=/var/run/pg"));
    assertThrows(PgknobException.class, () -> ConnectionString.toJdbcUrl("host=db options=-c"));
    assertThrows(PgknobException.class, () -> ConnectionString.toJdbcUrl("db:5432"));
    assertThrows(PgknobException.class, () -> ConnectionString.toJdbcUrl("host='db"));
  }

  @Test
  void theEnvironmentPicksTheServerAsPsqlDoes() throws Exception {
    assertEquals(Optional.empty(), LibpqEnvironment.choose(Map.of(), home));
    assertEquals(Optional.empty(), LibpqEnvironment.choose(Map.of("PGSSLMODE", "require"), home));
    LibpqEnvironment.Choice c =
        LibpqEnvironment.choose(Map.of("PGHOST", "db", "PGPORT", "5433", "PGUSER", "me"), home)
            .orElseThrow();
    assertEquals("jdbc:postgresql://db:5433/postgres?user=me", c.jdbcUrl());
    assertEquals("PGHOST=db, PGPORT=5433, PGUSER=me", c.reason());

    Files.writeString(
        home.resolve(".pg_service.conf"),
        "# services\n[prod]\nhost=prod-db\nport=5444\ndbname=app\n\n[test]\nhost=test-db\n");
    LibpqEnvironment.Choice s =
        LibpqEnvironment.choose(Map.of("PGSERVICE", "prod", "PGPORT", "1", "PGUSER", "me"), home)
            .orElseThrow();
    assertEquals("jdbc:postgresql://prod-db:5444/app?user=me", s.jdbcUrl(), "the service wins");
    assertTrue(s.reason().startsWith("PGSERVICE=prod ("), s.reason());
    assertThrows(
        PgknobException.class, () -> LibpqEnvironment.choose(Map.of("PGSERVICE", "nope"), home));
  }
}
