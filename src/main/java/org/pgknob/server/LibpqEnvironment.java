package org.pgknob.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.pgknob.PgknobException;

/**
 * Picks the server from the environment as psql does when no --target is given: PGSERVICE (its
 * section of pg_service.conf), then PGHOST, PGHOSTADDR, PGPORT, PGDATABASE, PGUSER, PGSSLMODE for
 * what the service leaves unset. Nothing set: no choice, and pgknob uses its managed cluster.
 *
 * <p>The service file is PGSERVICEFILE, else ~/.pg_service.conf, else pg_service.conf in
 * PGSYSCONFDIR or /etc/postgresql-common (Debian's). PGPASSWORD is not read here: the password is
 * the credentials' business, never the URL's.
 */
public final class LibpqEnvironment {
  private static final Map<String, String> VARIABLES =
      Map.of(
          "PGHOST", "host",
          "PGHOSTADDR", "hostaddr",
          "PGPORT", "port",
          "PGDATABASE", "dbname",
          "PGUSER", "user",
          "PGSSLMODE", "sslmode");

  /**
   * The server the environment names.
   *
   * @param jdbcUrl its JDBC URL (the user in its user parameter)
   * @param reason which variables (or service) chose it, for the line pgknob prints
   */
  public record Choice(String jdbcUrl, String reason) {}

  private LibpqEnvironment() {}

  /** The server {@code env} names, if it names one; {@code home} is the user's home folder. */
  public static Optional<Choice> choose(Map<String, String> env, Path home) {
    Map<String, String> keywords = new LinkedHashMap<>();
    List<String> from = new ArrayList<>();
    String service = env.get("PGSERVICE");
    if (service != null && !service.isBlank()) {
      Path file = serviceFile(env, home, service);
      keywords.putAll(section(file, service));
      from.add("PGSERVICE=" + service + " (" + file + ")");
    }
    for (String name : List.of("PGHOST", "PGHOSTADDR", "PGPORT", "PGDATABASE", "PGUSER")) {
      String value = env.get(name);
      if (value != null && !value.isBlank() && !keywords.containsKey(VARIABLES.get(name))) {
        keywords.put(VARIABLES.get(name), value);
        from.add(name + "=" + value);
      }
    }
    if (from.isEmpty()) {
      return Optional.empty(); // PGSSLMODE alone names no server
    }
    String sslmode = env.get("PGSSLMODE");
    if (sslmode != null && !sslmode.isBlank()) {
      keywords.putIfAbsent("sslmode", sslmode);
    }
    return Optional.of(
        new Choice(ConnectionString.fromKeywords(keywords), String.join(", ", from)));
  }

  private static Path serviceFile(Map<String, String> env, Path home, String service) {
    List<Path> candidates = new ArrayList<>();
    if (env.get("PGSERVICEFILE") != null) {
      candidates.add(Path.of(env.get("PGSERVICEFILE")));
    }
    if (home != null) {
      candidates.add(home.resolve(".pg_service.conf"));
    }
    if (env.get("PGSYSCONFDIR") != null) {
      candidates.add(Path.of(env.get("PGSYSCONFDIR"), "pg_service.conf"));
    }
    candidates.add(Path.of("/etc/postgresql-common/pg_service.conf"));
    for (Path p : candidates) {
      if (Files.isReadable(p) && !section(p, service).isEmpty()) {
        return p;
      }
    }
    throw new PgknobException(
        "PGSERVICE="
            + service
            + " names a service no pg_service.conf defines (looked in "
            + String.join(", ", candidates.stream().map(Path::toString).toList())
            + ")",
        "add a [" + service + "] section to ~/.pg_service.conf, or unset PGSERVICE");
  }

  /** The keywords of section [name] of an ini-style pg_service.conf; empty when absent. */
  static Map<String, String> section(Path file, String name) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      return Map.of();
    }
    Map<String, String> out = new LinkedHashMap<>();
    boolean inside = false;
    for (String raw : lines) {
      String line = raw.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      if (line.startsWith("[") && line.endsWith("]")) {
        inside = line.substring(1, line.length() - 1).strip().equals(name);
        continue;
      }
      int eq = line.indexOf('=');
      if (inside && eq > 0) {
        out.put(
            line.substring(0, eq).strip().toLowerCase(Locale.ROOT), line.substring(eq + 1).strip());
      }
    }
    return out;
  }
}
