package org.pgknob.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.pgknob.Json;

/** Copies of the recorded session folder, whole or damaged the ways real folders get damaged. */
final class Fixtures {
  static final Path SESSION_SMALL = Path.of("src/test/resources/fixtures/session-small");

  private Fixtures() {}

  /** A fresh copy of the recorded session in {@code dir}. */
  static Path copy(Path dir) {
    try {
      Files.createDirectories(dir);
      try (Stream<Path> files = Files.list(SESSION_SMALL)) {
        for (Path f : files.toList()) {
          Files.copy(f, dir.resolve(f.getFileName()));
        }
      }
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The copy with its last trials.jsonl line cut in the middle, as a kill mid-write leaves it. */
  static Path truncated(Path dir) throws IOException {
    copy(dir);
    Path trials = dir.resolve("trials.jsonl");
    List<String> lines = Files.readAllLines(trials, StandardCharsets.UTF_8);
    String last = lines.get(lines.size() - 1);
    String cut =
        String.join("\n", lines.subList(0, lines.size() - 1))
            + "\n"
            + last.substring(0, last.length() / 2);
    Files.writeString(trials, cut, StandardCharsets.UTF_8);
    return dir;
  }

  /** The copy with only its failed trials, and no summary: a session where nothing ran. */
  static Path onlyFailed(Path dir) throws IOException {
    copy(dir);
    Path trials = dir.resolve("trials.jsonl");
    List<String> failed =
        Files.readAllLines(trials, StandardCharsets.UTF_8).stream()
            .filter(l -> !l.contains("\"status\":\"OK\""))
            .toList();
    Files.writeString(trials, String.join("\n", failed) + "\n", StandardCharsets.UTF_8);
    Files.delete(dir.resolve("summary.json"));
    return dir;
  }

  /** The copy without summary.json: a session still in its Bayesian phase. */
  static Path withoutSummary(Path dir) {
    copy(dir);
    try {
      Files.delete(dir.resolve("summary.json"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return dir;
  }

  /**
   * The copy where other processes used {@code foreignCores} of the host's 2 cores during the
   * window of each trial in {@code trials}, as pgknob records it since it measures them.
   */
  static Path withForeignCpu(Path dir, double foreignCores, Integer... trials) throws IOException {
    return withResources(
        dir,
        List.of(trials),
        (res, n) -> {
          res.put("foreignCpuAvgCores", foreignCores);
          res.put("foreignCpuPeakCores", foreignCores + 0.4);
          res.put("hostCores", 2);
        });
  }

  /**
   * The copy where each trial in {@code trials} ran its window again after other processes
   * disturbed the first (1541.5 TPS beside 1.1 of 2 cores, quiet 12 s later), as pgknob records it
   * since it repeats such windows.
   */
  static Path withDisturbedWindow(Path dir, Integer... trials) throws IOException {
    copy(dir);
    Path file = dir.resolve("trials.jsonl");
    StringBuilder out = new StringBuilder();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      ObjectNode t = (ObjectNode) Json.mapper().readTree(line);
      if (List.of(trials).contains(t.path("trial").asInt())) {
        t.putObject("disturbedWindow")
            .put("tps", 1541.5)
            .put("avgLatencyMs", 6.2)
            .put("foreignCpuAvgCores", 1.1)
            .put("hostCores", 2)
            .put("quietWaitSeconds", 12.3);
      }
      out.append(Json.mapper().writeValueAsString(t)).append('\n');
    }
    Files.writeString(file, out.toString(), StandardCharsets.UTF_8);
    return dir;
  }

  /**
   * The copy where each trial in {@code trials} read the server's disk: the least free space of its
   * window is 5 GB less 100 MB per trial number, as pgknob records it since it reads the disk.
   */
  static Path withDiskFree(Path dir, Integer... trials) throws IOException {
    return withResources(
        dir, List.of(trials), (res, n) -> res.put("diskFreeLeastBytes", (5120L - 100L * n) << 20));
  }

  /** The copy with {@code change} made to the resources of each trial in {@code trials}. */
  private static Path withResources(
      Path dir, List<Integer> trials, java.util.function.ObjIntConsumer<ObjectNode> change)
      throws IOException {
    copy(dir);
    Path file = dir.resolve("trials.jsonl");
    StringBuilder out = new StringBuilder();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      ObjectNode t = (ObjectNode) Json.mapper().readTree(line);
      int n = t.path("trial").asInt();
      if (trials.contains(n) && t.path("resources").isObject()) {
        change.accept((ObjectNode) t.path("resources"), n);
      }
      out.append(Json.mapper().writeValueAsString(t)).append('\n');
    }
    Files.writeString(file, out.toString(), StandardCharsets.UTF_8);
    return dir;
  }

  /**
   * The copy where every successful trial measured exactly the same (TPS, latency, per-second
   * timeline, CPU, memory, disk): what a very short or very quiet session can give, and what once
   * drew an axis of twenty identical tick labels. summary.json stays, so the results table keeps
   * its validated rows (ratios, intervals, settings: its widest form).
   */
  static Path allEqual(Path dir) throws IOException {
    copy(dir);
    Path file = dir.resolve("trials.jsonl");
    StringBuilder out = new StringBuilder();
    for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
      ObjectNode t = (ObjectNode) Json.mapper().readTree(line);
      if (t.path("workload").isObject()) {
        ObjectNode w = (ObjectNode) t.path("workload");
        w.put("tps", 400.0).put("tpsWithCheckpoint", 400.0).put("nopm", 10_000.0);
        w.put("tpm", 24_000.0);
        sameLatency((ObjectNode) w.path("overall"));
        w.path("transactions").forEach(x -> sameLatency((ObjectNode) x.path("latency")));
        w.path("timeline").forEach(x -> ((ObjectNode) x).put("committed", 400));
      }
      if (t.path("resources").isObject()) {
        ObjectNode r = (ObjectNode) t.path("resources");
        r.put("cpuUserPct", 80.0).put("cpuSysPct", 20.0).put("readMBps", 1.0);
        r.put("writeMBps", 5.0);
        for (String k : List.of("rssAvgBytes", "rssPeakBytes", "pssAvgBytes", "pssPeakBytes")) {
          r.put(k, 200L * 1024 * 1024);
        }
      }
      if (t.path("predictedMemoryBytes").isNumber()) {
        t.put("predictedMemoryBytes", 1024L * 1024 * 1024);
      }
      out.append(Json.mapper().writeValueAsString(t)).append('\n');
    }
    Files.writeString(file, out.toString(), StandardCharsets.UTF_8);
    return dir;
  }

  private static void sameLatency(ObjectNode l) {
    l.put("avgMs", 10.0).put("p50Ms", 8.0).put("p95Ms", 20.0).put("p99Ms", 30.0);
    l.put("maxMs", 100.0);
  }

  /**
   * The copy whose session.json records each swept knob's default as sessions do since exports
   * needed it (the recorded fixture predates that).
   */
  static Path withSettingFacts(Path dir) throws IOException {
    copy(dir);
    Path file = dir.resolve("session.json");
    ObjectNode session = (ObjectNode) Json.mapper().readTree(file.toFile());
    ObjectNode settings = session.putObject("settings");
    settings.putObject("shared_buffers").put("bootValue", "128MB").put("context", "restart");
    settings.putObject("checkpoint_timeout").put("bootValue", "5min").put("context", "reload");
    settings.putObject("wal_compression").put("bootValue", "off").put("context", "reload");
    Files.writeString(file, Json.mapper().writeValueAsString(session), StandardCharsets.UTF_8);
    return dir;
  }

  /**
   * The copy whose tuned rows change twelve settings with long names and carry a long verdict, as a
   * default session's picks do (2026-12-07): the results table's widest content.
   */
  static Path withLongSettings(Path dir) throws IOException {
    copy(dir);
    Path file = dir.resolve("summary.json");
    ObjectNode summary = (ObjectNode) Json.mapper().readTree(file.toFile());
    for (com.fasterxml.jackson.databind.JsonNode row : summary.path("results")) {
      if (row.path("name").asText().contains("/")) {
        ObjectNode r = (ObjectNode) row;
        ObjectNode settings = r.putObject("settings");
        settings.put("bgwriter_lru_maxpages", "114");
        settings.put("checkpoint_completion_target", "0.8971");
        settings.put("checkpoint_timeout", "331s");
        settings.put("commit_delay", "194");
        settings.put("effective_cache_size", "19293MB");
        settings.put("effective_io_concurrency", "2");
        settings.put("maintenance_work_mem", "874MB");
        settings.put("max_wal_size", "9600MB");
        settings.put("min_wal_size", "1816MB");
        settings.put("random_page_cost", "1.63335");
        settings.put("wal_writer_delay", "146ms");
        settings.put("work_mem", "77MB");
        r.put(
            "verdict",
            "1.01x TPS (0.99 to 1.03), within noise; 0.99x latency (0.97 to 1.01), within noise;"
                + " the same configuration as restart/tps, measured once; 1.01x PGTune-style's"
                + " TPS (0.99 to 1.03)");
      }
    }
    Files.writeString(file, Json.mapper().writeValueAsString(summary), StandardCharsets.UTF_8);
    return dir;
  }
}
