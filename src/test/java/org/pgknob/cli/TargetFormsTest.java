package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pgknob.Json;
import org.pgknob.server.ManagedCluster;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SharedPostgres;

/** --target as libpq takes it (URI, conninfo) and --json, against the real shared cluster. */
class TargetFormsTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  @Test
  void uriAndConninfoReachTheSameServerAsTheJdbcUrl() {
    int port = SharedPostgres.cluster().port();
    assertEquals(
        0,
        run("target", "--target", "postgresql://postgres@127.0.0.1:" + port + "/postgres"),
        err::toString);
    assertTrue(out.toString().contains("server:     PostgreSQL 18."), out::toString);
    out.getBuffer().setLength(0);
    assertEquals(
        0,
        run("target", "--target", "host=127.0.0.1 port=" + port + " user=postgres dbname=postgres"),
        err::toString);
    assertTrue(out.toString().contains("server:     PostgreSQL 18."), out::toString);
  }

  @Test
  void aPasswordInsideIsRefusedInOneLine() {
    int port = SharedPostgres.cluster().port();
    assertEquals(
        ExitCodes.ERROR,
        run("target", "--target", "postgresql://postgres:hunter2@127.0.0.1:" + port + "/postgres"));
    String text = err.toString();
    assertTrue(text.startsWith("pgknob: the URI carries a password"), text);
    assertTrue(text.contains("PGPASSWORD, ~/.pgpass or --password-file"), text);
    assertTrue(!text.contains("hunter2"), text);
    assertEquals(1, text.strip().lines().count(), text);
  }

  @Test
  void targetJsonHasTheFactsAsFields() throws Exception {
    ManagedCluster cluster = SharedPostgres.cluster();
    assertEquals(
        0,
        run("target", "--json", "--user", "postgres", "--target", cluster.jdbcUrl("postgres")),
        err::toString);
    JsonNode json = Json.mapper().readTree(out.toString());
    assertTrue(json.get("serverVersion").asText().startsWith("18."), out::toString);
    assertEquals(cluster.dataDir().toString(), json.get("dataDirectory").asText());
    assertTrue(json.get("serverVersionNum").asInt() >= 180000);
    boolean restartListsSharedBuffers = false;
    for (JsonNode n : json.get("needRestart")) {
      restartListsSharedBuffers |= n.asText().equals("shared_buffers");
    }
    assertTrue(restartListsSharedBuffers, out::toString);
    // The disk as the rule reads it: half the WAL disk's room, which holds at least a segment.
    long room = json.get("walRoomBytes").asLong();
    assertTrue(room > json.get("diskFreeBytes").asLong() - (1L << 30), out::toString);
    assertEquals(room / 2, json.get("walLimitBytes").asLong(), 1, out::toString);
  }

  private int run(String... args) {
    ManagedCluster cluster = SharedPostgres.cluster();
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--password-file", cluster.passwordFile().toString()));
    return Cli.run(out, err, all);
  }
}
