package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.server.TargetIdentity;

/**
 * The options a verdict's next steps repeat to measure the same workload again: each workload's
 * spec says its own, the defaults left out; the session knows no workload's options.
 */
class SessionOptionsTest {
  private static final String MANAGED = "managed cluster in /var/tmp/pgknob/cluster, port 5433";

  private static String options(Map<String, Object> workload, int rampupSeconds, String target) {
    Map<String, Object> m = TinyInputs.map("30", List.of("reload", "restart"));
    m.put("workload", workload);
    m.put("rampupSeconds", rampupSeconds);
    return VerdictFacts.sessionOptions(
        SessionInputs.fromMap(m), VerdictFacts.serverOptions(target, null));
  }

  @Test
  void theDefaultTproccNeedsNoWorkloadOption() {
    assertEquals(
        "",
        options(Map.of("name", "tprocc", "warehouses", 2, "users", 4), 5, MANAGED),
        "tune's defaults: 2 warehouses, 5-s ramp-up");
  }

  @Test
  void anotherTproccSizeIsGivenByItsWarehouses() {
    assertEquals(
        "--warehouses 3 --rampup 1s",
        options(Map.of("name", "tprocc", "warehouses", 3, "users", 4), 1, MANAGED));
  }

  @Test
  void tproccUsersAndAllWarehousesAreRepeatedWhenNotTheDefaults() {
    assertEquals(
        "--warehouses 4 --vus 8 --all-warehouses",
        options(
            Map.of("name", "tprocc", "warehouses", 4, "users", 8, "allWarehouses", true),
            5,
            MANAGED),
        "a 60-minute session at 4 warehouses and 8 users once suggested --warehouses 4 alone");
  }

  @Test
  void aPgbenchScriptRepeatsItsScaleAndUsersWhenNotTheDefaults() {
    assertEquals(
        "--workload pgbench-tpcb --scale 20 --vus 8",
        options(Map.of("name", "pgbench-tpcb", "scale", 20, "users", 8), 5, MANAGED));
  }

  @Test
  void aPgbenchScriptIsNamedByItsWorkload() {
    assertEquals(
        "--workload pgbench-select",
        options(Map.of("name", "pgbench-select", "scale", 10, "users", 4), 5, MANAGED),
        "pgbench's defaults: scale 10, 4 users");
  }

  @Test
  void aCommandIsQuotedForTheShellAndTakesNoRampup() {
    assertEquals(
        "--target 'jdbc:postgresql://db:5432/postgres' --workload-cmd 'sh bench.sh '\\''fast'\\'''",
        options(
            Map.of("name", "command", "command", "sh bench.sh 'fast'", "database", "postgres"),
            1,
            "jdbc:postgresql://db:5432/postgres"));
  }

  /**
   * What a session searched and judged is repeated when not the defaults: a `--objective latency
   * --tracks reload` session's next step was a TPS session of both tracks.
   */
  @Test
  void whatTheSessionSearchedAndJudgedIsRepeatedWhenNotTheDefaults() {
    Map<String, Object> m = TinyInputs.map("30", List.of("reload"));
    m.put("workload", Map.of("name", "pgbench-tpcb", "scale", 2, "users", 4));
    m.put("rampupSeconds", 5);
    m.put("objective", "latency");
    m.put("spaceFile", "my space.yaml");
    m.put("rulesFile", "rules.yaml");
    m.put("allowDurabilityTradeoff", true);
    m.put("ramBytes", 8L << 30);
    m.put("surrogate", "rf");
    m.put("pgtune", Map.of("storage", "hdd", "cpus", 4, "connections", 50));
    m.put("validationTarget", 0.025);
    m.put("seed", 7L);
    m.put("applyBest", true);
    assertEquals(
        "--workload pgbench-tpcb --scale 2 --tracks reload --objective latency --space"
            + " 'my space.yaml' --rules rules.yaml --allow-durability-tradeoff --ram 8GB --storage"
            + " hdd --cpus 4 --connections 50 --surrogate rf --validation-target 2.5%",
        VerdictFacts.sessionOptions(
            SessionInputs.fromMap(m), VerdictFacts.serverOptions(MANAGED, null)),
        "not the seed nor --apply: a new session's own");
  }

  @Test
  void bothTracksTheTpsObjectiveAndTheBundledFilesAreLeftOut() {
    Map<String, Object> m = TinyInputs.map("30", List.of("restart", "reload"));
    m.put("workload", Map.of("name", "tprocc", "warehouses", 2, "users", 4));
    m.put("rampupSeconds", 5);
    assertEquals(
        "",
        VerdictFacts.sessionOptions(
            SessionInputs.fromMap(m), VerdictFacts.serverOptions(MANAGED, null)));
  }

  /**
   * A managed cluster of another major is named by its --pg-version: without it a session on
   * PostgreSQL 16 told the user to apply its pick with a command that changes the 18 cluster.
   */
  @Test
  void aManagedClusterOfAnotherMajorIsNamedByItsPgVersion() {
    assertEquals(
        "--pg-version 16",
        VerdictFacts.serverOptions(
            "managed PostgreSQL 16 cluster at 127.0.0.1:5433 (/var/tmp/pgknob/cluster-16/data)",
            null));
    assertEquals(
        "",
        VerdictFacts.serverOptions(
            "managed PostgreSQL 18 cluster at 127.0.0.1:5433 (/var/tmp/pgknob/cluster-18/data)",
            null));
    assertEquals(
        "--target 'postgresql://app@db:5432/shop'",
        VerdictFacts.serverOptions("postgresql://app@db:5432/shop", null));
  }

  /**
   * A server of the user's is named by the URL, role and restart command its restore file keeps:
   * the session's own name for it ("PostgreSQL at db:5432 as app") is for people, and a next step
   * read {@code --target 'PostgreSQL at 127.0.0.1:5432 as pgknob'}, which no command takes.
   */
  @Test
  void aServerOfTheUsersIsNamedByItsUrlRoleAndRestartCommand() {
    assertEquals(
        "--target jdbc:postgresql://db:5432/shop --user app --restart-command 'ssh db sudo"
            + " pg_ctlcluster 15 main restart'",
        VerdictFacts.serverOptions(
            "PostgreSQL at db:5432 as app",
            new TargetIdentity(
                TargetIdentity.REMOTE,
                null,
                "jdbc:postgresql://db:5432/shop",
                "app",
                "ssh db sudo pg_ctlcluster 15 main restart",
                120)));
    assertEquals(
        "--target 'host=db dbname=shop' --user app",
        VerdictFacts.serverOptions(
            "PostgreSQL at db:5432 as app",
            new TargetIdentity(
                TargetIdentity.REMOTE, null, "host=db dbname=shop", "app", null, 0)));
  }
}
