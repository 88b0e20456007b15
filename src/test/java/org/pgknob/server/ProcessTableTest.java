package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The process table read from a /proc of files written here, so every figure is known. */
class ProcessTableTest {
  @TempDir Path proc;

  @Test
  void pgknobsTreeCountsItsChildrenAndWhatTheyReapedButNotTheServer() throws IOException {
    process(1, 0, 5, 0, 0); // init
    process(100, 1, 40, 7, 3); // this JVM: 40 ticks of its own, 10 of children it reaped
    process(200, 100, 20, 15, 0); // sh -c CMD: a benchmark command, 15 of its finished runs
    process(201, 200, 30, 0, 0); // the command's client
    process(300, 100, 9, 500, 0); // a postmaster started by pgknob: the server, not pgknob
    process(301, 300, 11, 0, 0); // one of its backends
    process(400, 1, 99, 0, 0); // another user's build

    ProcessTable table = ProcessTable.read(proc);

    assertEquals(List.of(300L, 301L), table.tree(300));
    List<Long> pgknob = table.tree(100);
    pgknob.removeAll(table.tree(300));
    assertEquals(40 + 10 + 20 + 15 + 30, table.cpuTicks(pgknob).total());
    assertEquals(9 + 500 + 11, table.cpuTicks(table.tree(300)).total());
  }

  @Test
  void aProcessThatIsNotRunningHasNoTreeAndNoStartTime() throws IOException {
    process(1, 0, 5, 0, 0);

    ProcessTable table = ProcessTable.read(proc);

    assertEquals(List.of(), table.tree(42));
    assertEquals(-1, table.startTicks(42));
  }

  @Test
  void aCommandNameWithSpacesAndParenthesesDoesNotShiftTheFields() throws IOException {
    Path dir = Files.createDirectories(proc.resolve("7"));
    Files.writeString(dir.resolve("stat"), statLine(7, "a (b) c", 1, 12, 3, 4));

    // utime 12 and cutime 3 are user time, cstime 4 system time
    assertEquals(new ProcessTable.CpuTicks(15, 4), ProcessTable.read(proc).cpuTicks(List.of(7L)));
  }

  private void process(long pid, long parent, long utime, long cutime, long cstime)
      throws IOException {
    Path dir = Files.createDirectories(proc.resolve(Long.toString(pid)));
    Files.writeString(
        dir.resolve("stat"), statLine(pid, "proc" + pid, parent, utime, cutime, cstime));
  }

  /** A /proc/[pid]/stat line: stime is 0, so utime alone is the process's own time. */
  private static String statLine(
      long pid, String comm, long parent, long utime, long cutime, long cstime) {
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
    // utime stime cutime cstime priority nice threads itrealvalue starttime
    return pid
        + " ("
        + comm
        + ") S "
        + parent
        + " 0 0 0 -1 0 0 0 0 0 "
        + utime
        + " 0 "
        + cutime
        + " "
        + cstime
        + " 20 0 1 0 1234\n";
  }
}
