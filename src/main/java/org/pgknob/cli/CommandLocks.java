package org.pgknob.cli;

import java.util.ArrayList;
import java.util.List;
import org.pgknob.server.ServerLock;

/**
 * The server locks the running command holds. A command takes its lock when it opens its server
 * ({@link TargetOptions}) and {@link Main}'s execution strategy releases it when the command ends,
 * however it ends; a killed process loses it with its file descriptors and connections.
 */
final class CommandLocks {
  private static final List<ServerLock> HELD = new ArrayList<>();

  private CommandLocks() {}

  static synchronized void hold(ServerLock lock) {
    HELD.add(lock);
  }

  static synchronized void releaseAll() {
    for (ServerLock lock : HELD) {
      lock.close();
    }
    HELD.clear();
  }
}
