package org.pgknob.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import org.pgknob.PgknobException;

/**
 * The files of a managed cluster's folder: the data directory made by initdb, the superuser's
 * password, the log folder, and the listen settings written at each start.
 */
final class ClusterFiles {
  static final String PASSWORD_FILE = "password";
  private static final String CLUSTER_CONF = "pgknob-cluster.conf";

  private final Path clusterDir;
  private final Path dataDir;
  private final Path logFile;
  private final PostgresBinaries binaries;

  ClusterFiles(Path clusterDir, Path dataDir, Path logFile, PostgresBinaries binaries) {
    this.clusterDir = clusterDir;
    this.dataDir = dataDir;
    this.logFile = logFile;
    this.binaries = binaries;
  }

  /**
   * Runs initdb when the data folder is missing or empty; checks an existing cluster's major
   * version against the binaries'.
   *
   * @param port the port the first configuration names (5432 for 0, a free port at each start)
   */
  void createIfNeeded(int port) {
    try {
      if (Files.isRegularFile(dataDir.resolve("PG_VERSION"))) {
        checkClusterVersion();
        return;
      }
      if (Files.isDirectory(dataDir)) {
        try (var entries = Files.list(dataDir)) {
          if (entries.findAny().isPresent()) {
            throw new PgknobException(
                "the data folder " + dataDir + " is not empty and holds no PostgreSQL cluster",
                "empty it, or point pgknob at another folder");
          }
        }
      }
      initdb(port);
    } catch (IOException e) {
      throw new PgknobException(
          "cannot prepare the cluster folder " + clusterDir + ": " + e.getMessage(),
          "check the folder's permissions, or set PGKNOB_HOME to a writable folder",
          e);
    }
  }

  /**
   * Writes the listen address, port and socket folder the next start uses, in a file included from
   * postgresql.conf: not a tuned setting, and nothing is passed on pg_ctl's command line.
   */
  void writeListenConf(int listenPort) {
    Path file = dataDir.resolve(CLUSTER_CONF);
    String content =
        "# Written by pgknob at each start of this managed cluster; not a tuned setting.\n"
            + "listen_addresses = '127.0.0.1'\n"
            + "port = "
            + listenPort
            + "\n"
            + "unix_socket_directories = ''\n";
    try {
      Files.writeString(file, content);
      ServerUser.own(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void checkClusterVersion() throws IOException {
    String version = Files.readString(dataDir.resolve("PG_VERSION")).trim();
    String binaryMajor = Integer.toString(binaries.major());
    if (!version.equals(binaryMajor)) {
      throw new PgknobException(
          "the data folder "
              + dataDir
              + " holds a PostgreSQL "
              + version
              + " cluster, and the binaries are PostgreSQL "
              + binaryMajor,
          "give --pg-version " + version + ", or use another folder");
    }
  }

  private void initdb(int port) throws IOException {
    Files.createDirectories(clusterDir);
    PgknobHome.makeTraversable(clusterDir);
    for (Path p = clusterDir.getParent(); p != null; p = p.getParent()) {
      checkTraversableByServer(p);
    }
    Files.createDirectories(dataDir);
    Files.setPosixFilePermissions(dataDir, PosixFilePermissions.fromString("rwx------"));
    Files.createDirectories(logFile.getParent());
    Files.writeString(logFile, "");
    String password = newPassword();
    Path passwordFile = clusterDir.resolve(PASSWORD_FILE);
    Files.writeString(passwordFile, password);
    Files.setPosixFilePermissions(passwordFile, PosixFilePermissions.fromString("rw-------"));
    // initdb reads the password from a file the server user can read; it is removed right after.
    Path pwfile = logFile.getParent().resolve(".initdb-pw");
    Files.writeString(pwfile, password + "\n");
    Files.setPosixFilePermissions(pwfile, PosixFilePermissions.fromString("rw-------"));
    ServerUser.own(dataDir);
    ServerUser.own(logFile.getParent());
    try {
      ServerCommand.Result result =
          ServerCommand.run(
              List.of(
                  binaries.bin("initdb").toString(),
                  "-D",
                  dataDir.toString(),
                  "-U",
                  ManagedCluster.SUPERUSER,
                  "--pwfile=" + pwfile,
                  "--auth=scram-sha-256",
                  "--encoding=UTF8",
                  "--no-locale",
                  "--no-instructions"),
              Duration.ofMinutes(5));
      if (result.exitCode() != 0) {
        throw new PgknobException(
            "initdb failed in " + dataDir + ": " + result.lastLines(5),
            "check that the folder is writable and on a local file system");
      }
    } finally {
      Files.deleteIfExists(pwfile);
    }
    Path conf = dataDir.resolve("postgresql.conf");
    Files.writeString(
        conf,
        Files.readString(conf)
            + "\n# Added by pgknob: listen address, port and socket folder of this managed"
            + " cluster.\ninclude_if_exists = '"
            + CLUSTER_CONF
            + "'\n");
    writeListenConf(port == 0 ? 5432 : port);
  }

  private static void checkTraversableByServer(Path dir) throws IOException {
    if (!ServerUser.runningAsRoot()) {
      return;
    }
    String perms = PosixFilePermissions.toString(Files.getPosixFilePermissions(dir));
    if (perms.charAt(8) != 'x') {
      throw new PgknobException(
          "the PostgreSQL server runs as uid "
              + ServerUser.UNPRIVILEGED_ID
              + " (PostgreSQL refuses root) and cannot enter "
              + dir
              + " ("
              + perms
              + ")",
          "set PGKNOB_HOME to a folder outside it, e.g. /var/tmp/pgknob");
    }
  }

  private static String newPassword() {
    byte[] bytes = new byte[24];
    new SecureRandom().nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }
}
