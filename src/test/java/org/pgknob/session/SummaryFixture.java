package org.pgknob.session;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;

/** A finished session's summary with fixed figures, for export and formatting tests. */
public final class SummaryFixture {
  private SummaryFixture() {}

  public static Summary summary(String id) {
    Map<String, String> restartTps = new TreeMap<>();
    restartTps.put("shared_buffers", "1GB");
    restartTps.put("max_wal_size", "8GB");
    restartTps.put("random_page_cost", "1.1");
    restartTps.put("work_mem", "8MB");
    restartTps.put("jit", "off");
    Map<String, String> reloadTps = new TreeMap<>();
    reloadTps.put("max_wal_size", "4GB");
    reloadTps.put("checkpoint_completion_target", "0.9");
    Map<String, String> pgtune = new TreeMap<>();
    pgtune.put("shared_buffers", "6GB");
    pgtune.put("work_mem", "75730kB");
    List<Summary.ResultRow> rows =
        List.of(
            new Summary.ResultRow(
                "defaults",
                null,
                null,
                Map.of(),
                2118.4,
                9500.2,
                3.776,
                9.1,
                null,
                null,
                List.of(1, 2, 3),
                "baseline",
                null,
                0,
                2290.7,
                null),
            new Summary.ResultRow(
                "pgtune",
                null,
                null,
                pgtune,
                2301.0,
                10321.0,
                3.48,
                8.2,
                new Summary.Ratio(1.086, 0.97, 1.21, 3),
                new Summary.Ratio(0.92, 0.81, 1.04, 3),
                List.of(30, 32, 34),
                "1.09x TPS (0.97 to 1.21), within noise",
                null,
                0,
                0,
                null),
            new Summary.ResultRow(
                "reload/tps",
                Track.RELOAD,
                Goal.TPS,
                reloadTps,
                2400.5,
                10800.0,
                3.33,
                7.9,
                new Summary.Ratio(1.133, 1.05, 1.22, 3),
                new Summary.Ratio(0.88, 0.8, 0.97, 3),
                List.of(24, 26, 28),
                "1.13x TPS (1.05 to 1.22), gain",
                null,
                0,
                0,
                null),
            new Summary.ResultRow(
                "restart/tps",
                Track.RESTART,
                Goal.TPS,
                restartTps,
                2710.25,
                12190.5,
                2.95,
                6.8,
                new Summary.Ratio(1.2794, 1.2011, 1.3628, 3),
                new Summary.Ratio(0.781, 0.73, 0.84, 3),
                List.of(18, 20, 22),
                "1.28x TPS (1.20 to 1.36), gain",
                null,
                0,
                0,
                null));
    return new Summary(
        id,
        "finished",
        Instant.parse("2026-11-29T22:10:00Z"),
        Instant.parse("2026-11-29T22:40:00Z"),
        new Summary.Machine(2, 24L << 30, "ssd", "Linux"),
        "18.1",
        "managed cluster /var/tmp/pgknob/cluster port 5433",
        Map.of("name", "tprocc", "warehouses", 1L, "vus", 4L),
        new Summary.Budget(40, 40, 1800, 1750.5),
        new Summary.Noise(3, 2118.4, 0.031, 3.776, 0.035),
        rows,
        List.of(
            new Summary.KnobImportance("shared_buffers", 0.18, "+18% TPS, 6x the noise"),
            new Summary.KnobImportance("work_mem", 0.0, "within noise")),
        List.of(new Summary.KnobImportance("max_wal_size", 0.31, "model importance 0.31")),
        "original settings restored",
        List.of(),
        List.of(),
        List.of(),
        null,
        List.of());
  }
}
