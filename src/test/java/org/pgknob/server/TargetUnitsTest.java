package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.PgknobException;

/** Value parsing, quoting and password-file rules that need no server. */
class TargetUnitsTest {
  private static final ServerSetting SHARED_BUFFERS =
      new ServerSetting(
          "shared_buffers",
          "16384",
          "8kB",
          "integer",
          "postmaster",
          "16",
          "1073741823",
          List.of(),
          "16384",
          "16384",
          "default",
          null,
          false);
  private static final ServerSetting DELAY =
      new ServerSetting(
          "vacuum_cost_delay",
          "0",
          "ms",
          "real",
          "user",
          "0",
          "100",
          List.of(),
          "0",
          "0",
          "default",
          null,
          false);
  private static final ServerSetting WORK_MEM =
      new ServerSetting(
          "work_mem",
          "4096",
          "kB",
          "integer",
          "user",
          "64",
          "2147483647",
          List.of(),
          "4096",
          "4096",
          "default",
          null,
          false);
  private static final ServerSetting MAX_CONNECTIONS =
      new ServerSetting(
          "max_connections",
          "100",
          null,
          "integer",
          "postmaster",
          "1",
          "262143",
          List.of(),
          "100",
          "100",
          "default",
          null,
          false);
  private static final ServerSetting FSYNC =
      new ServerSetting(
          "fsync", "on", null, "bool", "sighup", null, null, List.of(), "on", "on", "default", null,
          false);

  @TempDir Path dir;

  @Test
  void convertsValuesWithUnitsToTheBaseUnitAsPostgresDoes() {
    assertEquals("32768", SettingValue.canonical(SHARED_BUFFERS, "256MB"));
    assertEquals("32768", SettingValue.canonical(SHARED_BUFFERS, " 32768 "));
    assertEquals("131072", SettingValue.canonical(SHARED_BUFFERS, "1GB"));
    assertEquals("2.5", SettingValue.canonical(DELAY, "2500us"));
    assertEquals("off", SettingValue.canonical(FSYNC, "Of"));
    assertEquals("on", SettingValue.canonical(FSYNC, "yes"));
  }

  @Test
  void acceptsTheServersMicrosecondRoundingOfARealTimeAsTheSameValue() {
    // PostgreSQL stores 18.4333ms as 18.433 (whole microseconds); that is what was asked for.
    String asked = SettingValue.canonical(DELAY, "18.4333ms");
    assertTrue(SettingValue.sameValue(DELAY, asked, "18.433"));
    assertTrue(!SettingValue.sameValue(DELAY, asked, "18.431"), "two microseconds off is a change");
  }

  @Test
  void refusesWrongUnitsAndAmbiguousBooleans() {
    assertTrue(
        assertThrows(
                SettingRejectedException.class,
                () -> SettingValue.canonical(SHARED_BUFFERS, "256ms"))
            .getMessage()
            .contains("optionally with a unit (B, kB, MB, GB, TB)"));
    assertThrows(
        SettingRejectedException.class, () -> SettingValue.canonical(SHARED_BUFFERS, "256mb"));
    assertThrows(SettingRejectedException.class, () -> SettingValue.canonical(FSYNC, "o"));
  }

  @Test
  void refusesIntegersWithALeadingZeroAndReadsRealsAndHexAsPostgresDoes() {
    // Checked against PostgreSQL 18: SET work_mem = '010' is 8kB (octal), but
    // vacuum_cost_delay = '010' is 10ms (a real); work_mem = '08' is refused,
    // vacuum_cost_delay = '08' is 8ms and '0x10' 16ms. pgknob refuses the octal reading of an
    // integer instead of applying a value other than the one it was given and prints.
    assertEquals(
        "work_mem must not start with 0: PostgreSQL reads 0200 as octal 128; write the number"
            + " without the leading zero, but got '0200'",
        assertThrows(SettingRejectedException.class, () -> SettingValue.canonical(WORK_MEM, "0200"))
            .getMessage());
    assertThrows(
        SettingRejectedException.class, () -> SettingValue.canonical(SHARED_BUFFERS, "020MB"));
    assertEquals(
        "work_mem must not start with 0: PostgreSQL refuses 08 (an 8 or 9 in an octal number);"
            + " write the number without the leading zero, but got '08'",
        assertThrows(SettingRejectedException.class, () -> SettingValue.canonical(WORK_MEM, "08"))
            .getMessage());
    assertEquals("10", SettingValue.canonical(DELAY, "010"));
    assertEquals("8", SettingValue.canonical(DELAY, "08"));
    assertEquals("16", SettingValue.canonical(DELAY, "0x10"));
    assertEquals("267", SettingValue.canonical(WORK_MEM, "0x10B"));
  }

  @Test
  void refusesAUnitForASettingThatHasNone() {
    assertEquals(
        "max_connections takes no unit: must be an integer, but got '5MB'",
        assertThrows(
                SettingRejectedException.class,
                () -> SettingValue.canonical(MAX_CONNECTIONS, "5MB"))
            .getMessage());
    assertEquals(
        "max_connections must be between 1 and 262143, but got '0x0' = 0",
        assertThrows(
                SettingRejectedException.class,
                () -> SettingValue.canonical(MAX_CONNECTIONS, "0x0"))
            .getMessage());
  }

  @Test
  void showsMemoryValuesWithAReadableSize() {
    assertEquals("16384 8kB (128MB)", SHARED_BUFFERS.display());
    assertEquals("4096 kB (4MB)", WORK_MEM.display());
    assertEquals("64 kB", SettingValue.withUnit(WORK_MEM, "64"));
    assertEquals("1536 kB (1.5MB)", SettingValue.withUnit(WORK_MEM, "1536"));
    assertEquals("2.5 ms", SettingValue.withUnit(DELAY, "2.5"));
    assertEquals("100", MAX_CONNECTIONS.display());
    assertEquals(
        "shared_buffers must be between 16 8kB (128kB) and 1073741823 8kB (8.0TB), but got '64kB'"
            + " = 8 8kB (64kB)",
        assertThrows(
                SettingRejectedException.class,
                () -> SettingValue.canonical(SHARED_BUFFERS, "64kB"))
            .getMessage());
  }

  @Test
  void quotesValuesSoNoneCanEndTheLiteral() {
    assertEquals(
        "ALTER SYSTEM SET \"application_name\" TO E'a''b\\\\c'",
        SqlQuoting.alterSystemSet("application_name", "a'b\\c"));
    assertEquals(
        Map.of("application_name", "a'b\\c"),
        AutoConf.parse(AutoConf.render(Map.of("application_name", "a'b\\c"))));
  }

  @Test
  void findsPasswordsInAPgpassFileWithWildcardsAndEscapes() throws Exception {
    Path pgpass = dir.resolve("pgpass");
    Files.writeString(
        pgpass,
        "# comment\n"
            + "db.example:5432:sales:alice:first\n"
            + "127.0.0.1:*:*:bob:pa\\:ss\\\\word\n"
            + "*:*:*:*:fallback\n");
    Files.setPosixFilePermissions(pgpass, PosixFilePermissions.fromString("rw-------"));
    assertEquals(Optional.of("first"), PgPass.lookup(pgpass, "db.example", 5432, "sales", "alice"));
    assertEquals(Optional.of("pa:ss\\word"), PgPass.lookup(pgpass, "127.0.0.1", 6000, "x", "bob"));
    assertEquals(
        Optional.of("fallback"), PgPass.lookup(pgpass, "db.example", 5433, "sales", "alice"));
  }

  @Test
  void refusesAPgpassFileOthersMayRead() throws Exception {
    Path pgpass = dir.resolve("pgpass");
    Files.writeString(pgpass, "*:*:*:*:secret\n");
    Files.setPosixFilePermissions(pgpass, PosixFilePermissions.fromString("rw-r--r--"));
    PgknobException e =
        assertThrows(PgknobException.class, () -> PgPass.lookup(pgpass, "h", 5432, "d", "u"));
    assertTrue(e.getMessage().contains("may be read by group or others"), e.getMessage());
    assertEquals("chmod 600 " + pgpass, e.fix());
  }
}
