package org.pgknob.session;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.pgknob.cli.Main;
import org.pgknob.server.ManagedCluster;

/**
 * {@code pgknob tune} in a child JVM on a test cluster, through the deterministic synthetic
 * workload the verdict fixtures were recorded with (fixtures/verdict/synthetic-workload.sh, mode
 * gain), with 1 s windows: a whole session in about a minute whose process a test can signal or
 * kill. Sessions go to {@code dir/sessions}, the workload's log to {@code dir/workload-runs}, its
 * temp files to {@code dir/tmp}, the child's console to {@code console}.
 */
final class ChildTune {
  private static final Path WORKLOAD_SCRIPT =
      Path.of("src/test/resources/fixtures/verdict/synthetic-workload.sh").toAbsolutePath();

  private ChildTune() {}

  static Process start(ManagedCluster cluster, Path dir, int budget, Path console)
      throws IOException {
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Djava.io.tmpdir=" + Files.createDirectories(tempFolder(dir)),
            "-cp",
            System.getProperty("java.class.path"),
            Main.class.getName(),
            "tune",
            "--cluster-dir",
            cluster.clusterDir().toString(),
            "--workload-cmd",
            "sh '" + WORKLOAD_SCRIPT + "' gain '" + dir.resolve("workload-runs") + "'",
            "--rampup",
            "1s",
            "--duration",
            "1s",
            "--budget",
            Integer.toString(budget),
            "--out",
            sessions(dir).toString());
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(console.toFile())
        .start();
  }

  /** The child's temp folder: the workload command's password files go there. */
  static Path tempFolder(Path dir) {
    return dir.resolve("tmp");
  }

  static Path sessions(Path dir) {
    return dir.resolve("sessions");
  }

  /** The child's console so far, empty before it wrote any. */
  static String console(Path console) {
    try {
      return Files.exists(console) ? Files.readString(console) : "";
    } catch (IOException e) {
      return "(no output: " + e + ")";
    }
  }
}
