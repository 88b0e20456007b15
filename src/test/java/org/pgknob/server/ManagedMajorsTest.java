package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pgknob.space.BoundSpace;
import org.pgknob.space.ServerSpaceValidator;
import org.pgknob.testing.Cli;

/**
 * What matters on every major the managed cluster runs, against the real binaries of each (16, 17,
 * 18): apply and restore, the rollback of a setting that stops the server from starting, the search
 * space checked against the live pg_settings, and a short tuning session. One cluster per major,
 * made on first use and deleted at the end.
 */
class ManagedMajorsTest {
  private static final Map<Integer, ManagedCluster> CLUSTERS = new LinkedHashMap<>();

  @TempDir Path runDir;

  @AfterAll
  static void deleteClusters() throws Exception {
    for (ManagedCluster c : CLUSTERS.values()) {
      c.stop();
      PgknobHome.deleteTree(c.clusterDir());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {16, 17, 18})
  void appliesRestartsAndRestores(int major) throws Exception {
    ManagedCluster c = cluster(major);
    assertEquals(major, c.facts().majorVersion());
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("work_mem", "6MB");
    settings.put("shared_buffers", "192MB");
    assertTrue(c.configure(settings).restarted());
    assertEquals("6MB", show(c, "work_mem"));
    assertEquals("192MB", show(c, "shared_buffers"));

    assertTrue(c.restoreOriginals().restarted());
    assertEquals("4MB", show(c, "work_mem"));
    assertEquals("128MB", show(c, "shared_buffers"));
    assertFalse(autoConf(c).contains("shared_buffers"));
  }

  @ParameterizedTest
  @ValueSource(ints = {16, 17, 18})
  void rollsBackASettingThatStopsTheServerFromStarting(int major) throws Exception {
    ManagedCluster c = cluster(major);
    String before = autoConf(c);
    SettingRejectedException e =
        assertThrows(
            SettingRejectedException.class,
            () -> c.configure(Map.of("shared_buffers", "4TB", "work_mem", "16MB")));
    assertEquals(SettingRejectedException.Reason.DID_NOT_START, e.reason());
    assertTrue(e.getMessage().contains("shared memory"), e.getMessage());
    assertTrue(c.isRunning());
    assertEquals("128MB", show(c, "shared_buffers"));
    assertEquals("4MB", show(c, "work_mem"));
    c.restoreOriginals();
    assertEquals(before, autoConf(c));
  }

  @ParameterizedTest
  @ValueSource(ints = {16, 17, 18})
  void theDefaultSearchSpaceHoldsOnEachMajor(int major) throws Exception {
    ManagedCluster c = cluster(major);
    try (Connection conn = c.connect("postgres")) {
      BoundSpace bound = ServerSpaceValidator.loadDefault(conn);
      assertEquals(major >= 18, bound.space().contains("io_method"));
      assertEquals(major >= 18, bound.space().contains("io_workers"));
      assertTrue(bound.space().contains("shared_buffers"));
      assertTrue(bound.needsRestart("shared_buffers"));
    }
  }

  /**
   * 18's sessions are covered by the session tests; a session costs about a minute even at the
   * minimum budget (13 trials) on 1-s windows, so of the older majors only the oldest runs one
   * (17's binaries pass the three tests above).
   */
  @ParameterizedTest
  @ValueSource(ints = {16})
  void aShortSessionFinishesAndRestores(int major) throws Exception {
    ManagedCluster c = cluster(major);
    String before = autoConf(c);
    StringWriter err = new StringWriter();
    int exit =
        Cli.run(
            new StringWriter(),
            err,
            "tune",
            "--cluster-dir",
            c.clusterDir().toString(),
            "--pg-version",
            Integer.toString(major),
            "--warehouses",
            "1",
            "--vus",
            "2",
            "--rampup",
            "1s",
            "--duration",
            "1s",
            "--budget",
            "13",
            "--tracks",
            "reload",
            "--out",
            runDir.toString());
    assertEquals(0, exit, err.toString());
    Path session;
    try (var dirs = Files.list(runDir)) {
      session = dirs.findFirst().orElseThrow();
    }
    String json = Files.readString(session.resolve("session.json"));
    assertTrue(json.contains("\"postgresVersion\" : \"" + major + "."), json);
    assertEquals(before, autoConf(ManagedCluster.openExisting(c.clusterDir(), 0)));
  }

  @ParameterizedTest
  @ValueSource(ints = {14, 15, 19})
  void refusesAMajorItHasNoBinariesFor(int major) {
    var e =
        assertThrows(
            org.pgknob.PgknobException.class,
            () -> PostgresBinaries.ensure(PgknobHome.resolve(), major));
    assertTrue(e.getMessage().contains("16, 17 or 18"), e.getMessage());
  }

  private static synchronized ManagedCluster cluster(int major) throws Exception {
    ManagedCluster c = CLUSTERS.get(major);
    if (c == null) {
      Path home = PgknobHome.resolve();
      Path dir = Files.createTempDirectory(Files.createDirectories(home), "major-" + major + "-");
      c = ManagedCluster.open(dir, PostgresBinaries.ensure(home, major), 0);
      CLUSTERS.put(major, c);
    } else {
      // a session may have moved it to another port: a fresh handle adopts it
      c = ManagedCluster.openExisting(c.clusterDir(), 0);
      CLUSTERS.put(major, c);
    }
    c.start();
    return c;
  }

  private static String show(ManagedCluster c, String name) throws Exception {
    try (Connection conn = c.connect("postgres");
        ResultSet rs = conn.createStatement().executeQuery("SHOW " + name)) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static String autoConf(ManagedCluster c) throws Exception {
    return Files.readString(c.dataDir().resolve("postgresql.auto.conf"));
  }
}
