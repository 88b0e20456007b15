package org.pgknob.runs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.Json;

/** Track and Goal are written as the lower-case words the files have always held. */
class TrackAndGoalJsonTest {
  private static Summary.ResultRow row(String name, Track track, Goal objective) {
    return new Summary.ResultRow(
        name,
        track,
        objective,
        Map.of(),
        100,
        null,
        2,
        3,
        null,
        null,
        List.of(1),
        "",
        null,
        0,
        0,
        null);
  }

  @Test
  void aRowOfASearchWritesItsTrackAndObjectiveAsWords() throws Exception {
    JsonNode json = Json.mapper().valueToTree(row("restart/tps", Track.RESTART, Goal.TPS));
    assertEquals("restart", json.get("track").asText());
    assertEquals("tps", json.get("objective").asText());
    Summary.ResultRow back = Json.mapper().treeToValue(json, Summary.ResultRow.class);
    assertEquals(Track.RESTART, back.track());
    assertEquals(Goal.TPS, back.objective());
  }

  @Test
  void aRowOfNoSearchKeepsTheEmptyTrackAndObjectiveOfOlderSummaries() throws Exception {
    JsonNode json = Json.mapper().valueToTree(row("defaults", null, null));
    assertEquals("", json.get("track").textValue());
    assertEquals("", json.get("objective").textValue());
    Summary.ResultRow back = Json.mapper().treeToValue(json, Summary.ResultRow.class);
    assertNull(back.track());
    assertNull(back.objective());
  }

  @Test
  void anUnknownWordIsRefusedWithTheWordsItTakes() {
    var e = assertThrows(IllegalArgumentException.class, () -> Track.of("Restart"));
    assertEquals("unknown track 'Restart': expected reload or restart", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> Goal.of(""));
    assertEquals(Goal.LATENCY, Goal.TPS.other());
  }
}
