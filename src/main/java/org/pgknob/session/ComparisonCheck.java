package org.pgknob.session;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import org.pgknob.PgknobException;
import org.pgknob.safety.RamLimit;
import org.pgknob.safety.SafetyContext;
import org.pgknob.safety.SafetyRules;
import org.pgknob.safety.Verdict;
import org.pgknob.safety.WalRoom;
import org.pgknob.server.HostMemory;
import org.pgknob.server.ServerFacts;
import org.pgknob.server.ServerSetting;
import org.pgknob.server.SettingCheck;
import org.pgknob.server.SettingRejectedException;
import org.pgknob.server.Target;
import org.pgknob.space.Configuration;
import org.pgknob.space.PgSetting;
import org.pgknob.space.SearchSpace;

/**
 * What {@code pgknob compare} checks before its first trial, so a bad configuration costs a line
 * and not a comparison whose every run is refused: each setting of each candidate as the server
 * would take it (the name exists and may be changed; type, unit and range), then the safety rules'
 * relations and memory limit with the candidate's values in force. Durability values are measured
 * as given: the user chose them, and a comparison puts the original settings back at the end.
 */
public final class ComparisonCheck {
  private ComparisonCheck() {}

  /**
   * @param activeConnections the workload's concurrent clients, for the memory model
   * @throws PgknobException naming the file and line (or the candidate) and the setting at fault
   */
  public static void check(
      List<Comparison.Candidate> candidates,
      Target target,
      SafetyRules rules,
      int activeConnections) {
    List<ServerSetting> server = target.settings();
    Map<String, PgSetting> serverSettings;
    try (Connection conn = target.connect("postgres")) {
      serverSettings = PgSetting.readAll(conn);
    } catch (SQLException e) {
      throw new PgknobException(
          "cannot read the settings of " + target.describe() + ": " + e.getMessage(),
          "check that the server is up");
    }
    rules.validateAgainst(serverSettings);
    RamLimit ram = ram(target.facts());
    long perConnection = ConnectionCost.of(target, rules.perConnectionFallbackBytes());
    for (Comparison.Candidate c : candidates) {
      Map<String, PgSetting> inForce = new LinkedHashMap<>(serverSettings);
      for (Map.Entry<String, String> e : c.settings().entrySet()) {
        String canonical;
        try {
          canonical = SettingCheck.check(server, e.getKey(), e.getValue());
        } catch (SettingRejectedException rejected) {
          // Its fix may say "nothing was changed": true, but this is about the file.
          String fix = rejected.fix().replaceAll(";? ?nothing was changed", "").strip();
          throw new PgknobException(
              c.origin(e.getKey()) + ": " + rejected.getMessage(),
              (fix.isEmpty() ? "fix that line" : fix) + "; nothing was measured",
              rejected);
        }
        inForce.computeIfPresent(
            e.getKey().toLowerCase(Locale.ROOT), (name, s) -> s.withSetting(canonical));
      }
      SafetyContext context =
          new SafetyContext(
              new SearchSpace(c.name(), List.of()),
              inForce,
              ram,
              perConnection,
              activeConnections,
              true,
              true,
              // The file's settings are what the server runs with here, so the WAL rule has
              // nothing to refuse; the disk guardrail watches each run.
              WalRoom.UNKNOWN);
      Verdict verdict = rules.check(Configuration.empty(), context);
      if (!verdict.accepted()) {
        throw new PgknobException(
            c.name() + " breaks the safety rules of " + rules.source() + ": " + verdict.reason(),
            "change those settings; nothing was measured");
      }
    }
  }

  /**
   * The RAM the memory rule applies to: the host's (and its cgroup's) for a server on this host;
   * none for a server elsewhere, whose memory pgknob cannot see (its relations are still checked).
   */
  private static RamLimit ram(ServerFacts facts) {
    if (facts == null || !facts.local()) {
      return new RamLimit(Long.MAX_VALUE / 4, "unknown: the server runs on another host");
    }
    HostMemory host =
        facts.postmasterPid().isPresent()
            ? HostMemory.read(facts.postmasterPid().getAsLong())
            : HostMemory.read();
    return RamLimit.of(host, OptionalLong.empty());
  }
}
