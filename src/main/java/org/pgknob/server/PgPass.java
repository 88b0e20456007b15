package org.pgknob.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.pgknob.PgknobException;

/**
 * Passwords from a libpq password file (~/.pgpass, or PGPASSFILE): lines of
 * host:port:database:user:password, {@code *} matching anything in the first four fields, {@code
 * \:} and {@code \\} escaping, the first matching line winning. Like libpq, a file that group or
 * others may read is not used; pgknob says so rather than silently ignoring it.
 */
final class PgPass {
  private PgPass() {}

  /** PGPASSFILE if set, else ~/.pgpass. */
  static Path location() {
    String env = System.getenv("PGPASSFILE");
    return env != null && !env.isBlank()
        ? Path.of(env)
        : Path.of(System.getProperty("user.home"), ".pgpass");
  }

  /** The password for this connection, when the file has a matching line. */
  static Optional<String> lookup(Path file, String host, int port, String database, String user) {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    requireOwnerOnly(file, "password file");
    List<String> lines;
    try {
      lines = Files.readAllLines(file);
    } catch (IOException e) {
      throw new PgknobException(
          "cannot read the password file " + file + ": " + e.getMessage(), "check its permissions");
    }
    List<String> wanted = List.of(host, Integer.toString(port), database, user);
    for (String line : lines) {
      if (line.endsWith("\r")) {
        line = line.substring(0, line.length() - 1);
      }
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      List<String> fields = split(line);
      if (fields.size() < 5) {
        continue;
      }
      boolean matches = true;
      for (int i = 0; i < 4 && matches; i++) {
        matches = fields.get(i).equals("*") || fields.get(i).equals(wanted.get(i));
      }
      if (matches) {
        return Optional.of(fields.get(4));
      }
    }
    return Optional.empty();
  }

  /** Refuses a file holding a password that group or others may read, as libpq does. */
  static void requireOwnerOnly(Path file, String what) {
    try {
      Set<PosixFilePermission> perms = Files.getPosixFilePermissions(file);
      Set<PosixFilePermission> open =
          EnumSet.of(
              PosixFilePermission.GROUP_READ,
              PosixFilePermission.GROUP_WRITE,
              PosixFilePermission.GROUP_EXECUTE,
              PosixFilePermission.OTHERS_READ,
              PosixFilePermission.OTHERS_WRITE,
              PosixFilePermission.OTHERS_EXECUTE);
      open.retainAll(perms);
      if (!open.isEmpty()) {
        throw new PgknobException(
            "the "
                + what
                + " "
                + file
                + " may be read by group or others, so it is not used (as libpq does)",
            "chmod 600 " + file);
      }
    } catch (IOException | UnsupportedOperationException e) {
      // cannot tell on this file system: use it
    }
  }

  /**
   * The fields of a line: split at unescaped colons, backslash escapes removed; the fifth field
   * (the password) runs to the end of the line.
   */
  private static List<String> split(String line) {
    List<String> fields = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\\' && i + 1 < line.length()) {
        current.append(line.charAt(++i));
      } else if (c == ':' && fields.size() < 4) {
        fields.add(current.toString());
        current.setLength(0);
      } else {
        current.append(c);
      }
    }
    fields.add(current.toString());
    return fields;
  }
}
