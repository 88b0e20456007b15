package org.pgknob.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.Json;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Summary;
import org.pgknob.testing.Records;

/** The report's facts about the measurement: pooled noise, window error, drift of the defaults. */
class MeasurementFactsTest {
  @TempDir Path tmp;

  @Test
  void aSummaryWithMeasurementsShowsNoiseAndDriftAndAnOldOneLoadsWithout() throws IOException {
    Path dir = copy(Fixtures.SESSION_SMALL, tmp.resolve("s"));
    Summary old = Json.mapper().readValue(dir.resolve("summary.json").toFile(), Summary.class);
    assertTrue(old.measurements().isEmpty(), "summaries from before have none");
    Map<String, String> before = facts(dir);
    assertFalse(before.containsKey("drift of the defaults"));

    Summary.Measurement m =
        new Summary.Measurement(
            Goal.TPS,
            0.065,
            10,
            13,
            3,
            0.012,
            14,
            0.107,
            List.of(new Summary.DriftPoint(1, 1000, 1005), new Summary.DriftPoint(12, 1100, 1090)));
    Summary with = Records.with(old, "measurements", List.of(m));
    Json.mapper().writeValue(dir.resolve("summary.json").toFile(), with);
    assertEquals(
        List.of(m),
        Json.mapper()
            .readValue(dir.resolve("summary.json").toFile(), Summary.class)
            .measurements());
    Map<String, String> after = facts(dir);
    assertEquals(
        "TPS ± 6.5%, pooled from 13 runs of 3 configurations (10 degrees of freedom)",
        after.get("run-to-run noise"));
    assertTrue(after.get("window error").contains("14 windows"), after.toString());
    assertTrue(
        after.get("drift of the defaults").startsWith("10.7% between the lowest and highest level"),
        after.get("drift of the defaults"));
    assertTrue(after.get("drift of the defaults").contains("trial 12:"));
  }

  private static Map<String, String> facts(Path dir) {
    return ReportModelBuilder.build(SessionLoader.load(dir)).glance().stream()
        .collect(Collectors.toMap(ReportModel.Fact::name, ReportModel.Fact::value));
  }

  private static Path copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    return to;
  }
}
