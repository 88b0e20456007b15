package org.pgknob.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.postgresql.util.PasswordUtil;

/**
 * Debian's own PostgreSQL 15 (package postgresql, cluster 15/main on port 5432, managed by
 * pg_ctlcluster) as a test target, reached over TCP as a role that is not a superuser.
 *
 * <p>{@link #open} starts the cluster when it is down and creates the role with a random scram
 * password, written to a mode-600 file only (the server is sent its scram verifier); {@link #close}
 * drops the role and its databases and stops the cluster again if it was down, so the machine is
 * left as it was found. Superuser work goes through {@code psql} as the postgres operating-system
 * user (peer authentication), with the SQL on standard input so no secret shows in the process
 * list.
 */
public final class DebianPostgres implements AutoCloseable {
  public static final String CLUSTER = "15 main";
  public static final String URL = "jdbc:postgresql://127.0.0.1:5432/postgres";
  public static final String RESTART_COMMAND = "pg_ctlcluster 15 main restart";
  public static final Path DATA_DIR = Path.of("/var/lib/postgresql/15/main");

  private final String role;
  private final Path passwordFile;
  private final boolean wasRunning;

  private DebianPostgres(String role, Path passwordFile, boolean wasRunning) {
    this.role = role;
    this.passwordFile = passwordFile;
    this.wasRunning = wasRunning;
  }

  /**
   * Starts the cluster if needed and creates {@code role} (LOGIN, no superuser) with {@code
   * roleAttributes} (e.g. CREATEDB). Skips the test (an assumption) where Debian's PostgreSQL 15 is
   * not installed or we are not root.
   */
  public static DebianPostgres open(String role, String roleAttributes, Path folder)
      throws IOException {
    Assumptions.assumeTrue(
        Files.isDirectory(Path.of("/etc/postgresql/15/main"))
            && Files.isExecutable(Path.of("/usr/bin/pg_ctlcluster"))
            && "root".equals(System.getProperty("user.name")),
        "Debian's PostgreSQL 15 (apt-get install postgresql) and root are needed");
    boolean running = isRunning();
    if (!running) {
      shell("pg_ctlcluster 15 main start");
    }
    byte[] secret = new byte[18];
    new SecureRandom().nextBytes(secret);
    String password = HexFormat.of().formatHex(secret);
    Path file = folder.resolve("password");
    Files.writeString(file, password + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    DebianPostgres pg = new DebianPostgres(role, file, running);
    pg.dropRole();
    // The server gets the scram verifier, never the password: a failed statement lands in its log.
    String verifier = PasswordUtil.encodeScramSha256(password.toCharArray());
    superuserSql(
        "CREATE ROLE "
            + role
            + " LOGIN NOSUPERUSER "
            + roleAttributes
            + " PASSWORD '"
            + verifier
            + "';\n");
    return pg;
  }

  public String role() {
    return role;
  }

  public Path passwordFile() {
    return passwordFile;
  }

  /** Runs {@code sql} as the postgres superuser; throws with psql's output if it fails. */
  public static String superuserSql(String sql) {
    return run(
        List.of(
            "runuser", "-u", "postgres", "--", "psql", "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1"),
        sql);
  }

  /** Every setting as name to "setting (source)", read as the superuser. */
  public static Map<String, String> settings() {
    Map<String, String> out = new TreeMap<>();
    for (String line :
        superuserSql("SELECT name || '=' || setting || ' (' || source || ')' FROM pg_settings;")
            .split("\n")) {
      int eq = line.indexOf('=');
      if (eq > 0) {
        out.put(line.substring(0, eq), line.substring(eq + 1));
      }
    }
    return out;
  }

  /** The text of the cluster's postgresql.auto.conf. */
  public static String autoConf() throws IOException {
    return Files.readString(DATA_DIR.resolve("postgresql.auto.conf"));
  }

  /** pg_postmaster_start_time(): changes exactly when the server restarts. */
  public static String startTime() {
    return superuserSql("SELECT pg_postmaster_start_time();").strip();
  }

  public static boolean isRunning() {
    return shellStatus("pg_ctlcluster 15 main status") == 0;
  }

  /** Drops the role and its databases; stops the cluster if it was down at {@link #open}. */
  @Override
  public void close() {
    try {
      dropRole();
    } finally {
      if (!wasRunning) {
        shell("pg_ctlcluster 15 main stop");
      }
    }
  }

  private void dropRole() {
    String dbs =
        superuserSql(
            "SELECT string_agg(quote_ident(datname), ' ') FROM pg_database d"
                + " JOIN pg_roles r ON r.oid = d.datdba WHERE r.rolname = '"
                + role
                + "';");
    StringBuilder sql = new StringBuilder();
    for (String db : dbs.strip().split(" ")) {
      if (!db.isBlank()) {
        sql.append("DROP DATABASE ").append(db).append(" WITH (FORCE);\n");
      }
    }
    sql.append("DO $$BEGIN IF EXISTS (SELECT FROM pg_roles WHERE rolname = '")
        .append(role)
        .append("') THEN EXECUTE 'DROP OWNED BY ")
        .append(role)
        .append("'; EXECUTE 'DROP ROLE ")
        .append(role)
        .append("'; END IF; END$$;\n");
    superuserSql(sql.toString());
  }

  private static void shell(String command) {
    int status = shellStatus(command);
    if (status != 0) {
      throw new IllegalStateException(command + " exited with status " + status);
    }
  }

  private static int shellStatus(String command) {
    try {
      Process p =
          new ProcessBuilder("sh", "-c", command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!p.waitFor(120, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return -1;
      }
      return p.exitValue();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private static String run(List<String> command, String stdin) {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
      p.getOutputStream().close();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
        // The SQL is not echoed: it may hold a password.
        throw new IllegalStateException("psql failed: " + out);
      }
      return out;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
