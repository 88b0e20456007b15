package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.testcontainers.containers.PostgreSQLContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * The RemoteServer apply/restore round trip against PostgreSQL 16 and 17 in containers (the managed
 * cluster covers 18). Skipped where no Docker engine runs.
 */
@Testcontainers(disabledWithoutDocker = true)
class RemoteServerContainersTest {
  @Container
  static final PostgreSQLContainer<?> PG16 = new PostgreSQLContainer<>("postgres:16-alpine");

  @Container
  static final PostgreSQLContainer<?> PG17 = new PostgreSQLContainer<>("postgres:17-alpine");

  @TempDir Path dir;

  static Stream<PostgreSQLContainer<?>> servers() {
    return Stream.of(PG16, PG17);
  }

  @ParameterizedTest
  @MethodSource("servers")
  void appliesAndRestoresAReloadSetting(PostgreSQLContainer<?> container) throws Exception {
    Path password = dir.resolve("password");
    Files.writeString(password, container.getPassword() + "\n");
    Files.setPosixFilePermissions(password, PosixFilePermissions.fromString("rw-------"));
    RemoteServer server =
        RemoteServer.open(
            new RemoteServer.Options(
                container.getJdbcUrl(),
                container.getUsername(),
                password,
                null,
                Duration.ofSeconds(60)));
    server.useRestoreFile(dir.resolve(RestoreFile.FILE_NAME));
    assertEquals(
        container.getDockerImageName().contains(":16") ? 16 : 17, server.facts().majorVersion());
    assertTrue(!server.facts().local(), "a container's data folder is not readable here");
    String before = show(server, "work_mem");

    server.configure(Map.of("work_mem", "6MB"));
    assertEquals("6MB", show(server, "work_mem"));

    server.restoreOriginals();
    assertEquals(before, show(server, "work_mem"));
    assertTrue(RestoreFile.read(server.restoreFile()).isRestored());
  }

  private static String show(RemoteServer server, String name) throws Exception {
    try (Connection conn = server.connect("postgres");
        ResultSet rs = conn.createStatement().executeQuery("SHOW " + name)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
