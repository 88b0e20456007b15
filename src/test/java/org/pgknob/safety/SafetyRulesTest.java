package org.pgknob.safety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.PgknobException;
import org.pgknob.server.HostMemory;
import org.pgknob.space.BoundSpace;
import org.pgknob.space.Configuration;
import org.pgknob.space.PgSetting;
import org.pgknob.space.SearchSpace;
import org.pgknob.space.ServerSpaceValidator;
import org.pgknob.space.UnitCubeEncoder;
import org.pgknob.testing.SharedPostgres;

class SafetyRulesTest {
  private static final long GIB = 1L << 30;
  private static final long MIB = 1L << 20;
  private static Map<String, PgSetting> server;
  private static BoundSpace bound;
  private static final SafetyRules RULES = SafetyRulesFile.loadDefault();

  @TempDir Path dir;

  @BeforeAll
  static void bind() throws Exception {
    try (Connection conn = SharedPostgres.connect()) {
      server = PgSetting.readAll(conn);
      bound = ServerSpaceValidator.loadDefault(conn);
    }
  }

  private static SafetyContext context(long ramBytes, boolean tradeoff, boolean unsafe) {
    RamLimit ram = RamLimit.of(HostMemory.read(), OptionalLong.of(ramBytes));
    return new SafetyContext(
        bound.space(), server, ram, 10 * MIB, 8, tradeoff, unsafe, WalRoom.UNKNOWN);
  }

  @Test
  void rejectsAConfigurationPredictedOverTheMemoryLimitWithTheTermsAndTouchesNothing()
      throws Exception {
    Map<String, String> before = settingsNow();
    Configuration big = Configuration.of(Map.of("shared_buffers", 4096L, "work_mem", 64L));
    Verdict v = RULES.check(big, context(4 * GIB, false, false));
    assertFalse(v.accepted());
    assertEquals((long) Math.floor(0.9 * 4 * GIB), v.limitBytes());
    // 4 GiB + auto wal_buffers 16 MiB + 100 x 10 MiB + 8 x 64 MiB x 2 x 2 + 3 x 64 MiB + 64 MiB
    long expected = 4 * GIB + 16 * MIB + 1000 * MIB + 2048 * MIB + 192 * MIB + 64 * MIB;
    assertEquals(expected, v.predictedBytes());
    Map<String, Long> terms = new HashMap<>();
    v.terms().forEach(t -> terms.put(t.name(), t.bytes()));
    assertEquals(4 * GIB, terms.get("shared_buffers"));
    assertEquals(16 * MIB, terms.get("wal_buffers"));
    assertEquals(2048 * MIB, terms.get("sorts_and_hashes"));
    assertTrue(v.reason().contains("predicted memory 7.2GB exceeds the limit 3.6GB"), v.reason());
    assertTrue(v.reason().contains("RAM 4GB (--ram)"), v.reason());
    assertTrue(v.reason().contains("shared_buffers 4GB"), v.reason());
    assertEquals(before, settingsNow());
  }

  @Test
  void acceptsTheBaselineAndResolvesDerivedSettingsAsPostgresqlDoes() {
    Verdict v = RULES.check(Configuration.empty(), context(64 * GIB, false, false));
    assertTrue(v.accepted(), v.reason());
    Map<String, Long> terms = new HashMap<>();
    v.terms().forEach(t -> terms.put(t.name(), t.bytes()));
    assertEquals(4 * MIB, terms.get("wal_buffers"), "wal_buffers -1 = 128MB / 32");
    assertEquals(3 * 64 * MIB, terms.get("autovacuum"), "autovacuum_work_mem -1 = 64MB");
    assertEquals(128 * MIB, terms.get("shared_buffers"));
  }

  private static SafetyContext withWalRoom(long roomBytes) {
    return context(64 * GIB, false, false)
        .withWalRoom(new WalRoom(roomBytes, "/data/pg (the test's disk)"));
  }

  @Test
  void refusesAWalThatWouldTakeMoreThanHalfTheWalDisksRoomAndNamesTheDisk() {
    SafetyContext tenGib = withWalRoom(10 * GIB);
    Verdict v = RULES.check(Configuration.of(Map.of("max_wal_size", 8192L)), tenGib);
    assertFalse(v.accepted());
    assertTrue(
        v.reason().contains("the WAL it may keep, 8GB (max_wal_size + wal_keep_size), exceeds")
            && v.reason().contains("disk limit 5GB (0.5 x the WAL disk's 10GB")
            && v.reason().contains("/data/pg (the test's disk)"),
        v.reason());
    assertTrue(RULES.check(Configuration.of(Map.of("max_wal_size", 4096L)), tenGib).accepted());
    assertTrue(
        RULES
            .check(
                Configuration.of(Map.of("max_wal_size", 65536L)), context(64 * GIB, false, false))
            .accepted(),
        "a disk pgknob cannot see refuses nothing");
  }

  @Test
  void neverRefusesTheWalTheServerAlreadyRanWithButRefusesMore() {
    // The server keeps 1GB (max_wal_size's default); half of 1GB of room is 512MB.
    SafetyContext small = withWalRoom(GIB);
    assertTrue(RULES.check(Configuration.empty(), small).accepted(), "the server as found");
    assertTrue(RULES.check(Configuration.of(Map.of("max_wal_size", 512L)), small).accepted());
    Verdict more = RULES.check(Configuration.of(Map.of("max_wal_size", 2048L)), small);
    assertFalse(more.accepted());
    assertTrue(
        more.reason()
            .contains(
                "exceeds the disk limit 1GB (the WAL the server kept as found, more than its"
                    + " disk's share of the 1GB of free space and WAL at the start"),
        more.reason());
    assertEquals(GIB, RULES.walAllowedBytes(new WalRoom(GIB, "x"), server));
  }

  @Test
  void aConfigurationGivenAsTextIsHeldToTheSameWalLimitInEveryUnitPostgresTakes() {
    SafetyContext tenGib = withWalRoom(10 * GIB);
    // PGTune-style's min_wal_size and max_wal_size, outside any search space.
    Optional<String> pgtune =
        RULES.walRisk(Map.of("min_wal_size", "2GB", "max_wal_size", "8GB"), tenGib);
    assertTrue(
        pgtune.isPresent()
            && pgtune.get().startsWith("the WAL it may keep, 8GB (max_wal_size + wal_keep_size)")
            && pgtune.get().contains("disk limit 5GB (0.5 x the WAL disk's 10GB")
            && pgtune.get().contains("/data/pg (the test's disk)"),
        pgtune.toString());
    // A plain number is in the setting's unit (MB), as PostgreSQL reads it.
    assertTrue(RULES.walRisk(Map.of("max_wal_size", "8192"), tenGib).isPresent());
    assertEquals(Optional.empty(), RULES.walRisk(Map.of("max_wal_size", "4096"), tenGib));
    assertEquals(Optional.empty(), RULES.walRisk(Map.of("max_wal_size", "4GB"), tenGib));
    // wal_keep_size counts on top: 4GB + 2GB is more than 5GB.
    assertTrue(
        RULES.walRisk(Map.of("max_wal_size", "4GB", "wal_keep_size", "2GB"), tenGib).isPresent());
    assertEquals(Optional.empty(), RULES.walRisk(Map.of("work_mem", "64MB"), tenGib));
    assertEquals(
        Optional.empty(),
        RULES.walRisk(Map.of("max_wal_size", "64GB"), context(64 * GIB, false, false)),
        "a disk pgknob cannot see: nothing to say");
    assertEquals(
        Optional.empty(),
        RULES.walRisk(Map.of("max_wal_size", "lots"), tenGib),
        "no size: the server refuses it before any WAL is written");
  }

  @Test
  void theDiskSectionIsOptionalAndItsValuesAreChecked() throws Exception {
    SafetyRules withoutDisk = SafetyRulesFile.load(write(validRules()));
    assertEquals(GIB, withoutDisk.diskReserveBytes());
    assertEquals(0.5, withoutDisk.walLimitFraction());
    SafetyRules own =
        SafetyRulesFile.load(
            write(validRules() + "disk:\n  wal_limit_fraction: 0.25\n  reserve: 3GB\n"));
    assertEquals(3 * GIB, own.diskReserveBytes());
    assertEquals(GIB, own.walLimitBytes(new WalRoom(4 * GIB, "x")));
    assertEquals(GIB, RULES.diskReserveBytes(), "the shipped rules keep 1GB free");
    assertTrue(
        badFile(validRules() + "disk:\n  wal_limit_fraction: 2\n")
            .contains("disk.wal_limit_fraction must lie in (0, 1], but got 2"));
    assertTrue(
        badFile(validRules() + "disk:\n  reserve: lots\n")
            .contains("disk.reserve must be a size such as 10MB, but got 'lots'"));
    assertTrue(
        badFile(validRules() + "disk:\n  free: 1GB\n")
            .contains("disk has an unknown field 'free'"));
  }

  @Test
  void rejectsABrokenRelationByItsName() {
    Configuration c = Configuration.of(Map.of("min_wal_size", 4096L, "max_wal_size", 1024L));
    Verdict v = RULES.check(c, context(64 * GIB, false, false));
    assertFalse(v.accepted());
    assertTrue(
        v.reason().contains("relation 'min_wal_size <= max_wal_size' does not hold"), v.reason());
  }

  @Test
  void rejectsAKnobWhoseConditionDoesNotHold() {
    Configuration c = Configuration.of(Map.of("io_method", "sync", "io_workers", 4L));
    Verdict v = RULES.check(c, context(64 * GIB, false, false));
    assertFalse(v.accepted());
    assertTrue(v.reason().contains("io_workers is set, but its condition"), v.reason());
  }

  @Test
  void durabilityValuesNeverAppearWithoutTheirOptIn() {
    SearchSpace safe = RULES.restrictSpace(bound.space(), false);
    assertFalse(safe.contains("synchronous_commit"));
    assertFalse(safe.contains("fsync"));
    assertFalse(safe.contains("full_page_writes"));
    UnitCubeEncoder encoder = new UnitCubeEncoder(safe);
    Random random = new Random(7);
    for (int i = 0; i < 300; i++) {
      double[] x = random.doubles(encoder.dimensions()).toArray();
      Configuration c = encoder.decode(x);
      assertFalse(c.has("synchronous_commit") || c.has("fsync") || c.has("full_page_writes"));
    }

    SearchSpace tradeoff = RULES.restrictSpace(bound.space(), true);
    assertEquals(List.of("on", "off"), tradeoff.knob("synchronous_commit").choices());
    assertFalse(tradeoff.contains("fsync"));
    SearchSpace unsafe = RULES.restrictSpace(bound.space(), false, true);
    assertTrue(unsafe.contains("fsync") && unsafe.contains("full_page_writes"));
    assertTrue(unsafe.contains("synchronous_commit"));
  }

  @Test
  void refusesADurabilityValueSetWithoutTheOptIn() {
    Configuration off = Configuration.of(Map.of("synchronous_commit", "off"));
    Verdict refused = RULES.check(off, context(64 * GIB, false, false));
    assertFalse(refused.accepted());
    assertTrue(refused.reason().contains("--allow-durability-tradeoff"), refused.reason());
    assertTrue(RULES.check(off, context(64 * GIB, true, false)).accepted());
    Configuration noFsync = Configuration.of(Map.of("fsync", "off"));
    assertFalse(RULES.check(noFsync, context(64 * GIB, true, false)).accepted());
    assertTrue(RULES.check(noFsync, context(64 * GIB, false, true)).accepted());
  }

  /**
   * A setting written in any of PostgreSQL's spellings of off is held back as "off" is: "fsync =
   * false" once passed apply's check and a compared file's "Not durable" label.
   */
  @Test
  void everySpellingOfOffIsHeldBackAsOffIs() {
    for (String off : List.of("off", "OFF", "'off'", "false", "f", "fal", "no", "n", "0", " of ")) {
      assertEquals(
          List.of(
              "fsync="
                  + off.strip()
                  + " (a crash or power loss may corrupt the cluster; needs --allow-unsafe)"),
          RULES.heldBack(Map.of("fsync", off), false, false),
          off);
      assertTrue(RULES.durabilityRisk("synchronous_commit", off).isPresent(), off);
    }
    for (String on : List.of("on", "true", "yes", "1", "local", "remote_apply", "o", "")) {
      assertEquals(
          List.of(),
          RULES.heldBack(Map.of("fsync", on, "synchronous_commit", on), false, false),
          on);
      assertTrue(RULES.durabilityRisk("synchronous_commit", on).isEmpty(), on);
    }
    assertEquals(List.of(), RULES.heldBack(Map.of("FSYNC", "off"), false, true));
    assertEquals(1, RULES.heldBack(Map.of("FSYNC", "off"), true, false).size());
    assertEquals(List.of(), RULES.heldBack(Map.of("synchronous_commit", "no"), true, false));
    assertEquals(
        "the last commits before a crash may be lost, the database stays consistent; pgknob sets"
            + " it only with --allow-durability-tradeoff",
        RULES.durabilityRisk("synchronous_commit", "off").orElseThrow());
  }

  @Test
  void thePredicateViewAgreesWithTheVerdicts() {
    Predicate<Configuration> feasible = RULES.asPredicate(context(2 * GIB, false, false));
    assertTrue(feasible.test(Configuration.of(Map.of("shared_buffers", 256L))));
    assertFalse(feasible.test(Configuration.of(Map.of("shared_buffers", 2048L))));
  }

  @Test
  void ramIsTheLeastOfMemTotalCgroupAndTheUsersFigure() {
    HostMemory host = new HostMemory(24 * GIB, 20 * GIB, 8 * GIB);
    assertEquals(new RamLimit(8 * GIB, "cgroup limit"), RamLimit.of(host, OptionalLong.empty()));
    assertEquals(new RamLimit(2 * GIB, "--ram"), RamLimit.of(host, OptionalLong.of(2 * GIB)));
    HostMemory free = new HostMemory(24 * GIB, 20 * GIB, 0);
    assertEquals(
        new RamLimit(24 * GIB, "host MemTotal"), RamLimit.of(free, OptionalLong.of(32 * GIB)));
    assertThrows(PgknobException.class, () -> RamLimit.forRemoteServer(OptionalLong.empty()));
  }

  @Test
  void reportsARulesFileSyntaxErrorWithLineAndColumn() throws Exception {
    String msg = badFile("memory:\n  limit_fraction: [0.9\n  terms: {}\n");
    assertTrue(msg.contains("not valid YAML at line 3, column"), msg);
  }

  @Test
  void rejectsARuleThatNamesAnUnknownSetting() throws Exception {
    Path file = write(validRules().replace("[shared_buffers]", "[shared_bufers]"));
    SafetyRules rules = SafetyRulesFile.load(file);
    PgknobException e = assertThrows(PgknobException.class, () -> rules.validateAgainst(server));
    assertTrue(
        e.oneLine().startsWith(file + ": memory term shared_buffers names shared_bufers"),
        e.oneLine());
    assertOneLine(e);
    Path relation = write(validRules().replace("min_wal_size <=", "min_wal <="));
    PgknobException r =
        assertThrows(
            PgknobException.class, () -> SafetyRulesFile.load(relation).validateAgainst(server));
    assertTrue(r.getMessage().contains("relation 'min_wal <= max_wal_size' names min_wal"));
  }

  @Test
  void rejectsMalformedRules() throws Exception {
    assertTrue(
        badFile(validRules().replace("0.90", "1.5")).contains("limit_fraction must lie in (0, 1]"));
    assertTrue(
        badFile(validRules().replace("min_wal_size <= max_wal_size", "min_wal_size <<< 3"))
            .contains("must read 'setting <= setting'"));
    assertTrue(
        badFile(validRules().replace("needs: unsafe", "needs: maybe"))
            .contains("needs must be durability-tradeoff or unsafe, but got 'maybe'"));
    assertTrue(badFile(validRules() + "extra: 1\n").contains("unknown field 'extra'"));
  }

  private String badFile(String yaml) throws Exception {
    Path file = write(yaml);
    PgknobException e = assertThrows(PgknobException.class, () -> SafetyRulesFile.load(file));
    assertTrue(e.getMessage().startsWith(file + ": "), e.oneLine());
    assertOneLine(e);
    return e.getMessage();
  }

  private Path write(String yaml) throws Exception {
    Path file = dir.resolve("rules-" + System.nanoTime() + ".yaml");
    Files.writeString(file, yaml);
    return file;
  }

  private static String validRules() {
    return """
        memory:
          limit_fraction: 0.90
          terms:
            shared_buffers: [shared_buffers]
        relations:
          - min_wal_size <= max_wal_size
        durability:
          fsync: {values: [off], needs: unsafe}
        """;
  }

  private static void assertOneLine(PgknobException e) {
    assertFalse(e.oneLine().contains("\n"), e.oneLine());
  }

  private static Map<String, String> settingsNow() throws Exception {
    Map<String, String> out = new HashMap<>();
    try (Connection conn = SharedPostgres.connect();
        ResultSet rs =
            conn.createStatement()
                .executeQuery(
                    "SELECT name, setting || '/' || source || '/' || pending_restart FROM pg_settings"
                        + " UNION ALL SELECT 'auto.conf', count(*)::text FROM pg_file_settings"
                        + " WHERE sourcefile LIKE '%postgresql.auto.conf'")) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getString(2));
      }
    }
    return out;
  }
}
