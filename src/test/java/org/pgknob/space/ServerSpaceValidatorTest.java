package org.pgknob.space;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.PgknobException;
import org.pgknob.testing.SharedPostgres;

class ServerSpaceValidatorTest {
  private static Map<String, PgSetting> settings;
  private static int major;

  @TempDir Path dir;

  @BeforeAll
  static void readServer() throws Exception {
    try (Connection conn = SharedPostgres.connect()) {
      settings = PgSetting.readAll(conn);
      major = PgSetting.serverMajor(conn);
    }
  }

  @Test
  void defaultSpaceBindsToTheLiveServerWithTheServersContextsAndBootValues() throws Exception {
    BoundSpace bound;
    Map<String, String[]> server = new HashMap<>();
    try (Connection conn = SharedPostgres.connect()) {
      bound = ServerSpaceValidator.loadDefault(conn);
      try (ResultSet rs =
          conn.createStatement().executeQuery("SELECT name, context, boot_val FROM pg_settings")) {
        while (rs.next()) {
          server.put(rs.getString(1), new String[] {rs.getString(2), rs.getString(3)});
        }
      }
    }
    assertTrue(bound.space().size() >= 33, "knobs: " + bound.space().names());
    for (Knob k : bound.space().knobs()) {
      assertEquals(server.get(k.name())[0], bound.contextOf(k.name()), k.name());
      assertEquals("postmaster".equals(server.get(k.name())[0]), bound.needsRestart(k.name()));
      if (k.isCategorical()) {
        assertEquals(server.get(k.name())[1], k.defaultValue(), k.name());
      }
    }
    // boot values converted exactly into each knob's unit; special -1 kept outside the range
    assertEquals(128L, bound.space().knob("shared_buffers").defaultValue());
    assertEquals(-1L, bound.space().knob("wal_buffers").defaultValue());
    assertEquals(4096L, bound.space().knob("effective_cache_size").defaultValue());
    assertEquals(300L, bound.space().knob("checkpoint_timeout").defaultValue());
    assertEquals(2.0, bound.space().knob("autovacuum_vacuum_cost_delay").defaultValue());
    assertTrue(bound.needsRestart("shared_buffers"));
    assertFalse(bound.reloadOnly().contains("shared_buffers"));
    assertTrue(bound.reloadOnly().contains("work_mem"));
  }

  @Test
  void aDefaultTheServerDerivesIsEncodedWhereTheServerRunsIt() throws Exception {
    SearchSpace space;
    long walBuffersMb;
    long maintenanceWorkMemMb;
    try (Connection conn = SharedPostgres.connect()) {
      space = ServerSpaceValidator.loadDefault(conn).space();
      walBuffersMb = megabytes(conn, "wal_buffers");
      maintenanceWorkMemMb = megabytes(conn, "maintenance_work_mem");
    }
    Knob walBuffers = space.knob("wal_buffers");
    assertEquals(-1L, walBuffers.defaultValue(), "the baseline still writes nothing");
    assertEquals(walBuffersMb, walBuffers.automaticValue(), "1/32 of shared_buffers");
    assertEquals(maintenanceWorkMemMb, space.knob("autovacuum_work_mem").automaticValue());
    assertEquals(200L, space.knob("autovacuum_vacuum_cost_limit").automaticValue());
    assertEquals(null, space.knob("shared_buffers").automaticValue(), "an ordinary default");

    // The baseline (knob absent, or written as -1) sits at the derived value, not at 1MB.
    UnitCubeEncoder encoder = new UnitCubeEncoder(space);
    int at =
        encoder.segments().stream()
            .filter(g -> g.knob() == walBuffers)
            .findFirst()
            .orElseThrow()
            .offset();
    double derived = UnitCubeEncoder.toUnit(walBuffers, walBuffersMb);
    assertTrue(derived > 0.1, "the derived value lies inside the range: " + derived);
    assertEquals(derived, encoder.encode(Configuration.of(Map.of()))[at], 1e-12);
    assertEquals(derived, encoder.encode(Configuration.of(Map.of("wal_buffers", -1L)))[at], 1e-12);
    // ... and comes back unset, so the server derives it from the configuration's own
    // shared_buffers (an anchor with shared_buffers=2GB keeps its 16MB); other values stay.
    assertFalse(encoder.decode(encoder.encode(Configuration.of(Map.of()))).has("wal_buffers"));
    Configuration explicit = Configuration.of(Map.of("wal_buffers", 64L));
    assertEquals(64L, encoder.decode(encoder.encode(explicit)).get("wal_buffers"));
  }

  private static long megabytes(Connection conn, String name) throws Exception {
    try (ResultSet rs =
        conn.createStatement()
            .executeQuery(
                "SELECT pg_size_bytes(current_setting('" + name + "')) / (1024 * 1024)")) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void olderServersGetTheDefaultSpaceWithoutTheKnobsTheyLack() {
    SearchSpace pg17 = SearchSpaceFile.loadDefault(17);
    assertFalse(pg17.contains("io_method"));
    assertFalse(pg17.contains("io_workers"));
    assertTrue(pg17.contains("shared_buffers"));
  }

  @Test
  void rendersSpecialNegativeValuesAndPageUnitsAsTheServerReadsThem() {
    SearchSpace space = SearchSpaceFile.loadDefault(major);
    assertEquals("-1", space.knob("wal_buffers").render(-1L));
    assertEquals("256MB", space.knob("shared_buffers").render(256L));
    assertEquals("32", space.knob("checkpoint_flush_after").render(32L));
  }

  @Test
  void rejectsAKnobTheServerDoesNotHave() {
    assertBindError("no_such_setting: {type: integer, min: 1, max: 10}", "no_such_setting");
  }

  @Test
  void rejectsARangeOutsideTheServers() {
    String msg =
        assertBindError(
            "checkpoint_timeout: {type: integer, unit: s, min: 10, max: 600}",
            "the range must lie within the server's 30 .. 86400 (in s)");
    assertTrue(msg.contains("10 .. 600 s"), msg);
  }

  @Test
  void rejectsEnumValuesTheServerLacksAndNamesWhatItOffers() {
    String msg =
        assertBindError(
            "wal_compression: {type: enum, values: [off, pglz, lz4, zstd]}", "lz4, zstd are not");
    assertTrue(msg.contains("[pglz, on, off]"), msg);
  }

  @Test
  void rejectsATypeOtherThanTheServers() {
    assertBindError(
        "random_page_cost: {type: integer, min: 1, max: 4}", "the server's, which is real");
  }

  @Test
  void rejectsAUnitOfAnotherKind() {
    assertBindError(
        "work_mem: {type: integer, unit: ms, min: 1, max: 4}", "must convert to the server's");
    assertBindError("commit_delay: {type: integer, unit: kB, min: 1, max: 4}", "(none)");
  }

  @Test
  void rejectsAnIntegerUnitFinerThanTheServersBecauseTheServerWouldRound() {
    assertBindError(
        "shared_buffers: {type: integer, unit: kB, min: 1024, max: 4096}", "whole multiple");
  }

  @Test
  void rejectsAUnitThatPostgresqlDoesNotKnow() {
    assertBindError(
        "work_mem: {type: integer, unit: MiB, min: 1, max: 4}", "is not a PostgreSQL unit");
  }

  @Test
  void reportsYamlSyntaxErrorsWithLineAndColumn() throws Exception {
    Path file = dir.resolve("broken.yaml");
    Files.writeString(file, "knobs:\n  work_mem: {type: integer, min: 1\n  jit: {type: bool}\n");
    PgknobException e =
        assertThrows(PgknobException.class, () -> SearchSpaceFile.load(file, major));
    assertTrue(e.oneLine().startsWith(file + ": not valid YAML at line 3, column"), e.oneLine());
    assertOneLine(e);
  }

  @Test
  void rejectsALogScaleWithANonPositiveBound() throws Exception {
    PgknobException e = fileError("commit_delay: {type: integer, min: 0, max: 100, scale: log}");
    assertTrue(e.getMessage().contains("a log scale needs min > 0, but got min=0"), e.oneLine());
  }

  @Test
  void rejectsAGridValueOutsideTheRange() throws Exception {
    PgknobException e =
        fileError("work_mem: {type: integer, unit: MB, min: 1, max: 64, grid: [4, 128]}");
    assertTrue(e.getMessage().contains("grid value 128 lies outside [1, 64]"), e.oneLine());
  }

  private PgknobException fileError(String knobLine) throws Exception {
    Path file = dir.resolve("space.yaml");
    Files.writeString(file, "knobs:\n  " + knobLine + "\n");
    PgknobException e =
        assertThrows(PgknobException.class, () -> SearchSpaceFile.load(file, major));
    assertTrue(e.getMessage().startsWith(file.toString() + ": knob "), e.oneLine());
    assertOneLine(e);
    return e;
  }

  private String assertBindError(String knobLine, String expected) {
    Path file = dir.resolve("space.yaml");
    try {
      Files.writeString(file, "knobs:\n  " + knobLine + "\n");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    SearchSpace space = SearchSpaceFile.load(file, major);
    PgknobException e =
        assertThrows(
            PgknobException.class, () -> ServerSpaceValidator.bind(space, settings, major));
    String knob = knobLine.substring(0, knobLine.indexOf(':'));
    assertTrue(e.getMessage().startsWith(file + ": knob " + knob), e.oneLine());
    assertTrue(e.getMessage().contains(expected), e.oneLine());
    assertOneLine(e);
    return e.getMessage();
  }

  private static void assertOneLine(PgknobException e) {
    assertFalse(e.oneLine().contains("\n"), e.oneLine());
  }
}
