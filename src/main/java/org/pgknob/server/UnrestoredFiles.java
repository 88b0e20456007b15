package org.pgknob.server;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pgknob.PgknobException;

/**
 * Which restore files of a server may still hold settings pgknob changed and never put back. A new
 * session or {@code apply} on top of them would take pgknob's own trial values for the server's
 * originals, and the real originals would be lost.
 *
 * <p>Session restore files live in run folders anywhere, so each one is listed, when its first
 * change is recorded, in {@code PGKNOB_HOME/restore/KEY.files}; {@code apply}'s own file is {@code
 * PGKNOB_HOME/restore/KEY.json}. A listed file that was deleted or restored no longer counts, nor
 * one with nothing to put back (a first change that failed and was rolled back).
 */
public final class UnrestoredFiles {
  private UnrestoredFiles() {}

  static Path listFile(TargetIdentity identity) {
    return RestoreFile.defaultPath(identity).resolveSibling(identity.key() + ".files");
  }

  /**
   * Lists {@code restoreFile} for its server; best effort (the restore file itself is what counts).
   */
  static void register(TargetIdentity identity, Path restoreFile) {
    Path list = listFile(identity);
    String line = restoreFile.toAbsolutePath().normalize() + "\n";
    try {
      Files.createDirectories(list.getParent());
      if (Files.exists(list) && Files.readAllLines(list).contains(line.strip())) {
        return;
      }
      Files.writeString(
          list, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      // without the list, only apply's own file is found: the restore file still protects
    }
  }

  /** The session restore files {@code list} names; none when it is missing or unreadable. */
  private static List<Path> listed(Path list) {
    List<Path> out = new ArrayList<>();
    try {
      if (Files.exists(list)) {
        for (String line : Files.readAllLines(list)) {
          if (!line.isBlank()) {
            out.add(Path.of(line.strip()));
          }
        }
      }
    } catch (IOException e) {
      return List.of();
    }
    return out;
  }

  /** The restore files of {@code identity} not restored yet, other than {@code own}. */
  public static List<Path> find(TargetIdentity identity, Path own) {
    Set<Path> candidates = new LinkedHashSet<>();
    candidates.add(RestoreFile.defaultPath(identity));
    candidates.addAll(listed(listFile(identity))); // unreadable: apply's file alone is checked
    Path ownPath = own == null ? null : own.toAbsolutePath().normalize();
    List<Path> unrestored = new ArrayList<>();
    for (Path candidate : candidates) {
      Path path = candidate.toAbsolutePath().normalize();
      if (path.equals(ownPath) || !Files.isRegularFile(path)) {
        continue;
      }
      try {
        RestoreFile file = RestoreFile.read(path);
        if (!file.isRestored()
            && !file.nothingToPutBack()
            && file.identity().sameServer(identity)) {
          unrestored.add(path);
        }
      } catch (RuntimeException e) {
        unrestored.add(path); // unreadable: a person must look at it
      }
    }
    return unrestored;
  }

  /**
   * Every restore file in {@code restoreFolder} (PGKNOB_HOME/restore) that is not restored, of any
   * server: apply's own files there, and the session files its lists name. For {@code pgknob
   * restore} without RUN_DIR, which reads one server's apply file and said "nothing to restore"
   * while a killed session's file, or another cluster's, still held changed settings.
   *
   * @return each file with the server it is for
   */
  public static List<Map.Entry<Path, String>> all(Path restoreFolder) {
    Set<Path> candidates = new java.util.TreeSet<>();
    try (var files = Files.list(restoreFolder)) {
      for (Path f : files.toList()) {
        String name = f.getFileName().toString();
        if (name.endsWith(".json")) {
          candidates.add(f.toAbsolutePath().normalize());
        } else if (name.endsWith(".files")) {
          listed(f).forEach(p -> candidates.add(p.toAbsolutePath().normalize()));
        }
      }
    } catch (IOException e) {
      return List.of(); // no folder: pgknob changed nothing from this PGKNOB_HOME
    }
    List<Map.Entry<Path, String>> out = new ArrayList<>();
    for (Path candidate : candidates) {
      if (!Files.isRegularFile(candidate)) {
        continue;
      }
      try {
        RestoreFile file = RestoreFile.read(candidate);
        if (!file.isRestored() && !file.nothingToPutBack()) {
          out.add(Map.entry(candidate, file.identity().describe()));
        }
      } catch (RuntimeException e) {
        // not a restore file (or damaged): restore of that file names the fault
      }
    }
    return out;
  }

  /**
   * Refuses to go on while another restore file of the server is unrestored, unless {@code force}
   * (then says so on {@code err}).
   *
   * @param own the restore file this command records in (apply's own accumulates), or null
   */
  public static void check(Target target, Path own, boolean force, PrintWriter err) {
    List<Path> unrestored = find(target.identity(), own);
    if (unrestored.isEmpty()) {
      return;
    }
    String files = String.join(", ", unrestored.stream().map(Path::toString).toList());
    if (force) {
      err.println(
          "pgknob: warning: --force: going on although "
              + files
              + " holds settings never put back; the current values count as the originals");
      err.flush();
      return;
    }
    throw new PgknobException(
        target.describe()
            + " still runs with settings pgknob changed and never put back, recorded in "
            + files,
        "run: pgknob restore "
            + unrestored.get(0)
            + " first, or add --force to take the current settings as the originals");
  }
}
