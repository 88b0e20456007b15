package org.pgknob.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The operating-system user the managed server runs as.
 *
 * <p>PostgreSQL refuses to run as root. When pgknob itself runs as root (as CI does), every server
 * program is started through {@code setpriv} as uid/gid 65534 (nobody), and the data folder is
 * owned by that uid. Otherwise the server runs as the current user.
 */
final class ServerUser {
  static final int UNPRIVILEGED_ID = 65534;

  private ServerUser() {}

  static boolean runningAsRoot() {
    return "root".equals(System.getProperty("user.name")) || currentUid() == 0;
  }

  /** The command line that runs {@code program} as the server user. */
  static List<String> wrap(List<String> command) {
    if (!runningAsRoot()) {
      return command;
    }
    List<String> wrapped = new ArrayList<>();
    wrapped.add("setpriv");
    wrapped.add("--reuid=" + UNPRIVILEGED_ID);
    wrapped.add("--regid=" + UNPRIVILEGED_ID);
    wrapped.add("--clear-groups");
    wrapped.add("--");
    wrapped.addAll(command);
    return wrapped;
  }

  /** Hands a folder (and what is in it) to the server user, when pgknob runs as root. */
  static void own(Path path) throws IOException {
    if (!runningAsRoot()) {
      return;
    }
    try (var walk = Files.walk(path)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Files.setAttribute(p, "unix:uid", UNPRIVILEGED_ID, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(p, "unix:gid", UNPRIVILEGED_ID, java.nio.file.LinkOption.NOFOLLOW_LINKS);
      }
    }
  }

  private static int currentUid() {
    try {
      Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
      return uid instanceof Integer i ? i : -1;
    } catch (IOException | UnsupportedOperationException e) {
      return -1;
    }
  }
}
