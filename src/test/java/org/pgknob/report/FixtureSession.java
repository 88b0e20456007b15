package org.pgknob.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.pgknob.Json;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.server.ResourceSummary;
import org.pgknob.trial.Phase;
import org.pgknob.trial.Status;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.CheckpointAccount;
import org.pgknob.workload.LatencySummary;
import org.pgknob.workload.SecondSample;
import org.pgknob.workload.TpccFigures;
import org.pgknob.workload.TransactionProfile;
import org.pgknob.workload.WorkloadResult;

/**
 * Writes the recorded session folder the report's tests read (src/test/resources/fixtures/
 * session-small): 34 trials of a 1-warehouse TPROC-C session on a 2-core, 4 GiB machine, from a
 * seeded random generator and a simple performance model (shared_buffers helps up to 1 GB, shorter
 * checkpoint_timeout helps, lz4 WAL compression helps a little). It covers every phase, both
 * tracks, and the three failures (CRASHED, REJECTED, MEMORY_GUARD).
 *
 * <p>Run {@code main} with the folder to regenerate; {@code FixtureSessionTest} checks the
 * committed files are what this writes.
 */
public final class FixtureSession {
  static final Path COMMITTED = Path.of("src/test/resources/fixtures/session-small");
  static final String ID = "2026-11-29T22-10-00";
  private static final Instant START = Instant.parse("2026-11-29T22:10:00Z");
  private static final long GIB = 1L << 30;
  private static final long MIB = 1L << 20;
  private static final int VUS = 4;
  private static final int WARMUP_SECONDS = 5;
  private static final int WINDOW_SECONDS = 30;
  private static final int CHECKPOINT_SECONDS = 3;

  private final Random random = new Random(20261129L);
  private final List<TrialResult> trials = new ArrayList<>();
  private Instant clock = START;

  public static void main(String[] args) throws IOException {
    write(args.length > 0 ? Path.of(args[0]) : COMMITTED);
  }

  /** Writes session.json, trials.jsonl and summary.json into {@code dir}. */
  public static void write(Path dir) throws IOException {
    new FixtureSession().writeTo(dir);
  }

  private void writeTo(Path dir) throws IOException {
    Files.createDirectories(dir);
    for (int i = 0; i < 3; i++) {
      run("baseline", "reload", "baseline " + (i + 1), Map.of());
    }
    for (long mb : List.of(32L, 128L, 512L, 1024L, 2048L)) {
      run("sweep", "restart", "sweep shared_buffers=" + mb + "MB", Map.of("shared_buffers", mb));
    }
    for (long min : List.of(1L, 2L, 5L, 10L)) {
      run(
          "sweep",
          "reload",
          "sweep checkpoint_timeout=" + min + "min",
          Map.of("checkpoint_timeout", min));
    }
    for (String c : List.of("off", "lz4", "zstd")) {
      run("sweep", "reload", "sweep wal_compression=" + c, Map.of("wal_compression", c));
    }
    Map<String, Object> bestReload =
        Map.of("checkpoint_timeout", 2L, "wal_compression", "lz4", "max_wal_size", 4096L);
    Map<String, Object> bestRestart =
        Map.of(
            "shared_buffers",
            1024L,
            "checkpoint_timeout",
            1L,
            "wal_compression",
            "lz4",
            "max_wal_size",
            4096L);
    run("bayes", "reload", "bayes 1", Map.of("checkpoint_timeout", 3L, "max_wal_size", 2048L));
    run(
        "bayes",
        "restart",
        "bayes 2",
        Map.of("shared_buffers", 768L, "checkpoint_timeout", 4L, "wal_compression", "zstd"));
    failed(
        "bayes",
        "restart",
        "bayes 3",
        Map.of("shared_buffers", 3584L, "max_wal_size", 8192L),
        Status.REJECTED,
        "predicted memory 3.87 GB exceeds the limit 3.60 GB (90% of 4.00 GB RAM)",
        3584L * MIB + 280 * MIB);
    run("bayes", "reload", "bayes 4", bestReload);
    failed(
        "bayes",
        "restart",
        "bayes 5",
        Map.of("shared_buffers", 3200L, "huge_pages", "on"),
        Status.CRASHED,
        "server did not start: FATAL: could not map anonymous shared memory: Cannot allocate"
            + " memory (setting rolled back, server restarted on the previous settings)",
        3200L * MIB + 240 * MIB);
    guardTrip(Map.of("shared_buffers", 2816L, "work_mem", 65536L));
    run("bayes", "restart", "bayes 7", bestRestart);
    run("bayes", "reload", "bayes 8", Map.of("checkpoint_timeout", 1L, "wal_compression", "off"));
    List<Integer> restartA = new ArrayList<>();
    List<Integer> restartB = new ArrayList<>();
    for (int pair = 0; pair < 3; pair++) {
      restartA.add(run("validation", "restart", "restart/tps A", Map.of()).trial());
      restartB.add(run("validation", "restart", "restart/tps B", bestRestart).trial());
    }
    List<Integer> reloadA = new ArrayList<>();
    List<Integer> reloadB = new ArrayList<>();
    for (int pair = 0; pair < 2; pair++) {
      reloadA.add(run("validation", "reload", "reload/tps A", Map.of()).trial());
      reloadB.add(run("validation", "reload", "reload/tps B", bestReload).trial());
    }
    TrialResult pgtune =
        run(
            "pgtune",
            "restart",
            "pgtune",
            Map.of(
                "shared_buffers",
                1024L,
                "effective_cache_size",
                3072L,
                "max_wal_size",
                4096L,
                "work_mem",
                2621L));

    // Sorted keys: Map.of and Map.copyOf iterate in a different order in every JVM.
    ObjectMapper sorted =
        Json.mapper().copy().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    ObjectMapper pretty = sorted.copy().enable(SerializationFeature.INDENT_OUTPUT);
    pretty.writeValue(dir.resolve("session.json").toFile(), session());
    StringBuilder lines = new StringBuilder();
    for (TrialResult t : trials) {
      lines.append(sorted.writeValueAsString(t)).append('\n');
    }
    Files.writeString(dir.resolve("trials.jsonl"), lines.toString(), StandardCharsets.UTF_8);
    pretty.writeValue(
        dir.resolve("summary.json").toFile(),
        summary(restartA, restartB, reloadA, reloadB, pgtune, bestRestart, bestReload));
  }

  // --- the performance model ---

  private double tpsFactor(Map<String, Object> config) {
    double f = 1;
    Object sb = config.get("shared_buffers");
    if (sb != null) {
      double x = Math.log(((Number) sb).doubleValue() / 128) / Math.log(2);
      f *= 1 + 0.08 * x - 0.02 * x * x;
    }
    Object ct = config.get("checkpoint_timeout");
    if (ct != null) {
      f *= 1 + 0.015 * (5 - ((Number) ct).doubleValue());
    }
    Object wc = config.get("wal_compression");
    if (wc != null) {
      f *=
          switch (wc.toString()) {
            case "lz4" -> 1.03;
            case "zstd" -> 1.01;
            case "pglz" -> 0.97;
            default -> 1.0;
          };
    }
    Object mws = config.get("max_wal_size");
    if (mws != null) {
      f *= 1 + 0.02 * Math.log(((Number) mws).doubleValue() / 1024) / Math.log(2);
    }
    return f;
  }

  private long sharedBuffersMb(Map<String, Object> config) {
    Object sb = config.get("shared_buffers");
    return sb == null ? 128 : ((Number) sb).longValue();
  }

  private double noise(double sd) {
    return 1 + sd * random.nextGaussian();
  }

  private TrialResult run(String phase, String track, String label, Map<String, Object> config) {
    double tps = r(420 * tpsFactor(config) * noise(0.015));
    WorkloadResult w = workload(config, tps, WINDOW_SECONDS);
    return add(phase, track, label, config, Status.OK, "", w, resources(config, tps), null);
  }

  private void failed(
      String phase,
      String track,
      String label,
      Map<String, Object> config,
      Status status,
      String reason,
      long predictedBytes) {
    add(
        phase,
        track,
        label,
        config,
        status,
        reason,
        null,
        status == Status.CRASHED ? ResourceSummary.UNAVAILABLE : null,
        predictedBytes);
  }

  /** A trial the memory guardrail stopped 13 seconds into its window. */
  private void guardTrip(Map<String, Object> config) {
    double tps = r(420 * tpsFactor(config) * noise(0.015));
    WorkloadResult w = workload(config, tps, 13);
    ResourceSummary res = resources(config, tps);
    ResourceSummary high =
        new ResourceSummary(
            true,
            res.cpuUserPct(),
            res.cpuSysPct(),
            res.rssAvgBytes(),
            res.rssPeakBytes() + 900 * MIB,
            3500 * MIB,
            3720 * MIB,
            res.readMBps(),
            res.writeMBps(),
            18,
            0,
            0,
            0,
            0,
            null);
    add(
        "bayes",
        "restart",
        "bayes 6",
        config,
        Status.MEMORY_GUARD,
        "PSS of the server reached 3.63 GB, over the guard of 3.60 GB (90% of RAM), at second 18;"
            + " trial stopped and settings rolled back",
        w,
        high,
        2816L * MIB + 640 * MIB);
  }

  private WorkloadResult workload(Map<String, Object> config, double tps, int measuredSeconds) {
    double avg = r(VUS * 1000.0 / tps * noise(0.01));
    List<SecondSample> timeline = new ArrayList<>();
    int second = 1;
    for (int i = 0; i < WARMUP_SECONDS; i++, second++) {
      long c = Math.round(tps * (0.4 + 0.12 * i) * noise(0.05));
      timeline.add(new SecondSample(second, false, c, r(VUS * 1000.0 / Math.max(1, c))));
    }
    long ctMin =
        config.get("checkpoint_timeout") == null
            ? 5
            : ((Number) config.get("checkpoint_timeout")).longValue();
    int checkpointAt = ctMin <= 2 ? 12 + random.nextInt(10) : -1;
    long committed = 0;
    for (int i = 0; i < measuredSeconds; i++, second++) {
      double dip = (second - WARMUP_SECONDS) == checkpointAt ? 0.7 : 1.0;
      long c = Math.round(tps * dip * noise(0.06));
      committed += c;
      timeline.add(new SecondSample(second, true, c, r(VUS * 1000.0 / Math.max(1, c))));
    }
    boolean finished = measuredSeconds == WINDOW_SECONDS;
    if (finished) {
      for (int i = 0; i < CHECKPOINT_SECONDS; i++, second++) {
        timeline.add(new SecondSample(second, false, 0, 0));
      }
    }
    double window = measuredSeconds;
    double realTps = r(committed / window);
    long calls = committed;
    List<TransactionProfile> tx = new ArrayList<>();
    String[] names = {"neword", "payment", "delivery", "slev", "ostat"};
    double[] share = {0.45, 0.43, 0.04, 0.04, 0.04};
    double[] scale = {1.3, 0.7, 3.0, 1.5, 0.6};
    for (int i = 0; i < names.length; i++) {
      long n = Math.round(calls * share[i]);
      double a = r(avg * scale[i] * noise(0.03));
      long rollbacks = names[i].equals("neword") ? Math.round(n * 0.01) : 0;
      tx.add(new TransactionProfile(names[i], n, 0, rollbacks, latency(n, a)));
    }
    long buffers = Math.round(1200 + 6.0 * sharedBuffersMb(config) * noise(0.1));
    double after = finished ? r(0.4 + buffers / 2500.0) : 0;
    return new WorkloadResult(
        window,
        committed,
        0,
        realTps,
        r(committed / (window + after)),
        latency(calls, avg),
        timeline,
        new CheckpointAccount(after, finished ? buffers : 0, checkpointAt > 0 ? 1 : 0),
        Map.of(),
        new TpccFigures(
            r(realTps * 60 * 2.1), r(realTps * 60 * 0.45), Math.round(calls * 0.45 * 0.01), tx));
  }

  private LatencySummary latency(long count, double avg) {
    return new LatencySummary(
        count, avg, r(avg * 0.82), r(avg * 2.3), r(avg * 3.6), r(avg * (8 + random.nextInt(6))));
  }

  private ResourceSummary resources(Map<String, Object> config, double tps) {
    long sb = sharedBuffersMb(config);
    long touched = Math.min(sb, 150) * MIB;
    long pss = 70 * MIB + touched;
    long rss = 10 * 9 * MIB + 6 * touched;
    return new ResourceSummary(
        true,
        r(70 + tps * 0.12 * noise(0.03)),
        r(22 * noise(0.05)),
        rss,
        rss + 20 * MIB,
        pss,
        pss + 8 * MIB,
        r((0.3 + 40.0 / sb) * noise(0.1)),
        r((5 + tps / 100) * noise(0.05)),
        WARMUP_SECONDS + WINDOW_SECONDS,
        0,
        0,
        0,
        0,
        null);
  }

  private TrialResult add(
      String phase,
      String track,
      String label,
      Map<String, Object> config,
      Status status,
      String reason,
      WorkloadResult w,
      ResourceSummary res,
      Long predictedBytes) {
    Map<String, String> settings = new TreeMap<>();
    config.forEach((k, v) -> settings.put(k, render(k, v)));
    boolean restart = config.containsKey("shared_buffers") || config.containsKey("huge_pages");
    Map<String, Double> timings = new LinkedHashMap<>();
    if (status == Status.REJECTED) {
      timings.put("total", 0.0);
    } else {
      timings.put("reset", r(6 + random.nextDouble()));
      timings.put("apply", restart ? r(3 + random.nextDouble()) : 0.2);
      timings.put("warmup", (double) WARMUP_SECONDS);
      timings.put("window", w == null ? 0.0 : w.windowSeconds());
      timings.put("checkpoint", w == null ? 0.0 : w.checkpoint().afterWindowSeconds());
      timings.put("total", r(timings.values().stream().mapToDouble(Double::doubleValue).sum()));
    }
    TrialResult t =
        new TrialResult(
            trials.size() + 1,
            Phase.of(phase),
            Track.fromJson(track),
            label,
            new TreeMap<>(config),
            settings,
            status,
            reason,
            w,
            res,
            predictedBytes,
            clock,
            timings);
    clock = clock.plus(Duration.ofMillis(Math.round(timings.get("total") * 1000) + 2000));
    trials.add(t);
    return t;
  }

  private static String render(String knob, Object v) {
    return switch (knob) {
      case "shared_buffers", "max_wal_size", "effective_cache_size" -> v + "MB";
      case "checkpoint_timeout" -> v + "min";
      case "work_mem" -> v + "kB";
      default -> v.toString();
    };
  }

  private static double r(double x) {
    return Math.round(x * 1000.0) / 1000.0;
  }

  // --- session.json and summary.json ---

  private Map<String, Object> session() {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("id", ID);
    s.put("createdAt", START.toString());
    Map<String, Object> inputs = new LinkedHashMap<>();
    inputs.put(
        "workload",
        Map.of(
            "name",
            "tprocc",
            "warehouses",
            1,
            "vus",
            VUS,
            "warmupSeconds",
            WARMUP_SECONDS,
            "windowSeconds",
            WINDOW_SECONDS));
    inputs.put("budget", "34 trials");
    inputs.put("tracks", List.of("reload", "restart"));
    inputs.put("objective", List.of("tps", "latency"));
    inputs.put("seed", 42);
    s.put("inputs", inputs);
    s.put("machine", machine());
    s.put("postgresVersion", "18.1");
    s.put("target", "managed cluster in /var/tmp/pgknob/cluster, port 54321");
    s.put("state", "finished");
    s.put(
        "space",
        Map.of(
            "source",
            "search-spaces/postgresql-18.yaml",
            "knobs",
            List.of(
                Map.of("name", "shared_buffers", "scale", "log", "unit", "MB"),
                Map.of("name", "checkpoint_timeout", "scale", "linear", "unit", "min"),
                Map.of("name", "wal_compression", "type", "enum"),
                Map.of("name", "max_wal_size", "scale", "log", "unit", "MB"))));
    return s;
  }

  private static Summary.Machine machine() {
    return new Summary.Machine(2, 4 * GIB, "ssd (ext4)", "Linux 6.1 amd64");
  }

  private Summary summary(
      List<Integer> restartA,
      List<Integer> restartB,
      List<Integer> reloadA,
      List<Integer> reloadB,
      TrialResult pgtune,
      Map<String, Object> bestRestart,
      Map<String, Object> bestReload) {
    List<TrialResult> baseline = trials.subList(0, 3);
    List<Integer> defaultsTrials = new ArrayList<>(List.of(1, 2, 3));
    defaultsTrials.addAll(restartA);
    defaultsTrials.addAll(reloadA);
    List<Summary.ResultRow> rows = new ArrayList<>();
    rows.add(row("defaults", "", "", Map.of(), defaultsTrials, null, null, "the baseline"));
    rows.add(
        row(
            "pgtune",
            "",
            "",
            pgtune.settings(),
            List.of(pgtune.trial()),
            new Summary.Ratio(r(pgtune.workload().tps() / meanTps(baseline)), 0, 0, 0),
            null,
            "single run, not validated in pairs"));
    for (String objective : List.of("tps", "latency")) {
      rows.add(pairedRow("reload", objective, bestReload, reloadA, reloadB));
    }
    for (String objective : List.of("tps", "latency")) {
      rows.add(pairedRow("restart", objective, bestRestart, restartA, restartB));
    }
    double tpsMean = meanTps(baseline);
    double sd = 0;
    for (TrialResult t : baseline) {
      sd += Math.pow(t.workload().tps() - tpsMean, 2);
    }
    sd = Math.sqrt(sd / 2);
    double latMean =
        baseline.stream().mapToDouble(t -> t.workload().overall().avgMs()).average().orElse(0);
    double seconds =
        trials.stream().mapToDouble(t -> t.timingsSeconds().getOrDefault("total", 0.0)).sum();
    return new Summary(
        ID,
        "finished",
        START,
        clock,
        machine(),
        "18.1",
        "managed cluster in /var/tmp/pgknob/cluster, port 54321",
        Map.of("name", "tprocc", "warehouses", 1, "vus", VUS, "windowSeconds", WINDOW_SECONDS),
        new Summary.Budget(34, trials.size(), 3600, r(seconds)),
        new Summary.Noise(3, r(tpsMean), r(sd / tpsMean), r(latMean), 0.012),
        rows,
        List.of(
            new Summary.KnobImportance("shared_buffers", 0.312, "+14.8% TPS, 7.9x the noise"),
            new Summary.KnobImportance("checkpoint_timeout", 0.071, "+6.1% TPS, 3.2x the noise"),
            new Summary.KnobImportance("wal_compression", 0.034, "within noise")),
        List.of(
            new Summary.KnobImportance("shared_buffers", 0.52, "most of the explained variance"),
            new Summary.KnobImportance("checkpoint_timeout", 0.21, ""),
            new Summary.KnobImportance("max_wal_size", 0.17, ""),
            new Summary.KnobImportance("wal_compression", 0.06, ""),
            new Summary.KnobImportance("work_mem", 0.04, "no effect")),
        "4 settings reset with ALTER SYSTEM RESET, server restarted: original configuration back",
        List.of(),
        List.of(),
        List.of(),
        null,
        List.of());
  }

  private Summary.ResultRow pairedRow(
      String track,
      String objective,
      Map<String, Object> config,
      List<Integer> a,
      List<Integer> b) {
    List<Double> tpsLogs = new ArrayList<>();
    List<Double> latLogs = new ArrayList<>();
    for (int i = 0; i < a.size(); i++) {
      TrialResult ta = trials.get(a.get(i) - 1);
      TrialResult tb = trials.get(b.get(i) - 1);
      tpsLogs.add(Math.log(tb.workload().tps() / ta.workload().tps()));
      latLogs.add(Math.log(tb.workload().overall().avgMs() / ta.workload().overall().avgMs()));
    }
    Summary.Ratio tps = ratio(tpsLogs);
    Summary.Ratio lat = ratio(latLogs);
    String verdict =
        tps.excludesOne()
            ? String.format(
                java.util.Locale.ROOT,
                "%.2fx TPS (%.2f to %.2f), gain",
                tps.estimate(),
                tps.low(),
                tps.high())
            : "within noise";
    Map<String, String> settings = new TreeMap<>();
    config.forEach((k, v) -> settings.put(k, render(k, v)));
    return row(track + "/" + objective, track, objective, settings, b, tps, lat, verdict);
  }

  /** Geometric mean of paired ratios with a t-interval on the logs (t for 1 and 2 df). */
  private static Summary.Ratio ratio(List<Double> logs) {
    int n = logs.size();
    double mean = logs.stream().mapToDouble(Double::doubleValue).average().orElse(0);
    double ss = logs.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum();
    double se = Math.sqrt(ss / (n - 1) / n);
    double t = n == 2 ? 12.706 : 4.303;
    return new Summary.Ratio(
        r(Math.exp(mean)), r(Math.exp(mean - t * se)), r(Math.exp(mean + t * se)), n);
  }

  private Summary.ResultRow row(
      String name,
      String track,
      String objective,
      Map<String, String> settings,
      List<Integer> trialNumbers,
      Summary.Ratio tpsRatio,
      Summary.Ratio latencyRatio,
      String verdict) {
    List<TrialResult> ts = trialNumbers.stream().map(n -> trials.get(n - 1)).toList();
    return new Summary.ResultRow(
        name,
        Track.fromJson(track),
        Goal.fromJson(objective),
        settings,
        r(meanTps(ts)),
        r(
            ts.stream()
                .mapToDouble(t -> t.workload().tpccFigures().orElseThrow().nopm())
                .average()
                .orElse(0)),
        r(ts.stream().mapToDouble(t -> t.workload().overall().avgMs()).average().orElse(0)),
        r(ts.stream().mapToDouble(t -> t.workload().overall().p95Ms()).average().orElse(0)),
        tpsRatio,
        latencyRatio,
        trialNumbers,
        verdict,
        null,
        0,
        0,
        null);
  }

  private static double meanTps(List<TrialResult> ts) {
    return ts.stream().mapToDouble(t -> t.workload().tps()).average().orElse(0);
  }
}
