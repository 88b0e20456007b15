package org.pgknob.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.Json;

/**
 * A workload result in trials.jsonl: the TPC-C figures stay where records written before {@link
 * TpccFigures} put them, and those records still read.
 */
class WorkloadResultJsonTest {
  /** A TPROC-C result as pgknob wrote it before TpccFigures, key for key. */
  static final String TPROCC_BEFORE =
      """
      {"windowSeconds":10.0,"committed":190,"errors":1,"rollbacks":2,"tps":19.0,\
      "tpsWithCheckpoint":18.0,"tpm":1200.0,"nopm":540.0,\
      "overall":{"count":192,"avgMs":4.0,"p50Ms":3.6,"p95Ms":8.0,"p99Ms":12.0,"maxMs":20.0},\
      "transactions":[{"name":"neword","calls":90,"errors":1,"rollbacks":2,\
      "latency":{"count":90,"avgMs":5.0,"p50Ms":4.0,"p95Ms":9.0,"p99Ms":13.0,"maxMs":20.0}}],\
      "timeline":[{"second":1,"measured":true,"committed":19,"avgLatencyMs":4.0}],\
      "checkpoint":{"afterWindowSeconds":0.5,"afterWindowBuffers":100,"checkpointsInWindow":0},\
      "extra":{"warehouses":1.0}}""";

  /** A pgbench result as pgknob wrote it before TpccFigures: zeros and the script as profile. */
  static final String PGBENCH_BEFORE =
      """
      {"windowSeconds":2.0,"committed":400,"errors":0,"rollbacks":0,"tps":200.0,\
      "tpsWithCheckpoint":190.0,"tpm":0.0,"nopm":0.0,\
      "overall":{"count":400,"avgMs":10.0,"p50Ms":9.0,"p95Ms":20.0,"p99Ms":30.0,"maxMs":40.0},\
      "transactions":[{"name":"tpcb-like","calls":400,"errors":0,"rollbacks":0,\
      "latency":{"count":400,"avgMs":10.0,"p50Ms":9.0,"p95Ms":20.0,"p99Ms":30.0,"maxMs":40.0}}],\
      "timeline":[],"checkpoint":{"afterWindowSeconds":0.1,"afterWindowBuffers":10,\
      "checkpointsInWindow":0},"extra":{"scale":1.0}}""";

  @Test
  void aTproccRecordFromBeforeReadsWithItsTpccFiguresAndIsWrittenBackKeyForKey()
      throws JsonProcessingException {
    WorkloadResult r = Json.mapper().readValue(TPROCC_BEFORE, WorkloadResult.class);
    TpccFigures tpcc = r.tpccFigures().orElseThrow();
    assertEquals(1200, tpcc.tpm());
    assertEquals(540, tpcc.nopm());
    assertEquals(2, tpcc.rollbacks());
    assertEquals("neword", tpcc.transactions().get(0).name());
    assertEquals(190, r.committed());
    assertEquals(1.0, r.extra().get("warehouses"));

    JsonNode written = Json.mapper().readTree(Json.mapper().writeValueAsString(r));
    JsonNode before = Json.mapper().readTree(TPROCC_BEFORE);
    // Same keys and values; the checkpoint account gained fields since, which old records lack.
    for (String key :
        List.of(
            "windowSeconds",
            "committed",
            "errors",
            "rollbacks",
            "tps",
            "tpsWithCheckpoint",
            "tpm",
            "nopm",
            "overall",
            "transactions",
            "timeline",
            "extra")) {
      assertEquals(before.get(key), written.get(key), key);
    }
    assertEquals(r, Json.mapper().readValue(written.toString(), WorkloadResult.class));
  }

  @Test
  void aPgbenchRecordFromBeforeReadsWithoutNopmAndAPgbenchResultWritesNone()
      throws JsonProcessingException {
    WorkloadResult r = Json.mapper().readValue(PGBENCH_BEFORE, WorkloadResult.class);
    assertTrue(r.tpccFigures().isEmpty(), "zeros written for a workload without NOPM");
    assertEquals(200, r.tps());

    JsonNode written = Json.mapper().readTree(Json.mapper().writeValueAsString(r));
    for (String key : List.of("tpm", "nopm", "rollbacks", "transactions")) {
      assertFalse(written.has(key), key + " in " + written);
    }
    assertEquals(r, Json.mapper().readValue(written.toString(), WorkloadResult.class));
  }

  @Test
  void aResultWithoutTpccFiguresStaysWithoutThem() throws JsonProcessingException {
    WorkloadResult r =
        new WorkloadResult(
            1, 10, 0, 10, 9, LatencySummary.NONE, List.of(), null, Map.of("scale", 1.0), null);
    WorkloadResult back =
        Json.mapper().readValue(Json.mapper().writeValueAsString(r), WorkloadResult.class);
    assertEquals(r, back);
  }
}
