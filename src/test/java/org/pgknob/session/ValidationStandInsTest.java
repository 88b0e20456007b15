package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.pgknob.runs.Goal;
import org.pgknob.runs.Track;

/**
 * Which picks take the validation runs of picks left out, on plans of a two-track session whose
 * picks' settings are given: "" for the defaults, any other text for a configuration.
 */
class ValidationStandInsTest {
  private static final List<Track> TRACKS = List.of(Track.RELOAD, Track.RESTART);

  /** The plan a default session makes: each track's tps pick and PGTune-style, 7 rounds. */
  private static SessionPlan plan(String... names) {
    return new SessionPlan(
        3,
        List.of(),
        List.of(new SessionPlan.BayesTrack(Track.RELOAD, 5)),
        java.util.Arrays.stream(names)
            .map(
                n ->
                    new SessionPlan.Validation(
                        n, n.startsWith("reload") ? Track.RELOAD : Track.RESTART))
            .toList(),
        7,
        null,
        new SessionPlan.Validating(Goal.TPS, 0.03, 3, 1));
  }

  private static SessionPlan defaultPlan() {
    return plan("restart/tps", "reload/tps", "pgtune");
  }

  /** What StepProposer leaves out: picks that are the defaults, and later twins of a pick. */
  private static Function<List<SessionPlan.Validation>, Set<String>> leftOut(
      Map<String, String> settings) {
    return validations -> {
      Set<String> out = new TreeSet<>();
      Map<String, String> first = new HashMap<>();
      for (SessionPlan.Validation v : validations) {
        if (v.name().equals("pgtune")) {
          continue;
        }
        String s = settings.get(v.name());
        if (s.isEmpty() || first.putIfAbsent(s, v.name()) != null) {
          out.add(v.name());
        }
      }
      return out;
    };
  }

  private static Map<String, String> inPlaceOf(SessionPlan plan) {
    Map<String, String> out = new HashMap<>();
    plan.validations().stream()
        .filter(v -> v.inPlaceOf() != null)
        .forEach(v -> out.put(v.name(), v.inPlaceOf()));
    return out;
  }

  @Test
  void eachTpsPickThatIsTheDefaultsGivesItsRunsToItsTracksLatencyPick() {
    Map<String, String> settings =
        Map.of("restart/tps", "", "reload/tps", "", "restart/latency", "a", "reload/latency", "b");
    SessionPlan plan = defaultPlan();
    SessionPlan added = ValidationStandIns.added(plan, TRACKS, Goal.TPS, leftOut(settings));

    assertEquals(
        Map.of("restart/latency", "restart/tps", "reload/latency", "reload/tps"), inPlaceOf(added));
    assertEquals(Track.RESTART, added.validation("restart/latency").orElseThrow().track());
    // rounds of the same runs as the plan's, and no trial more in all
    Set<String> out = leftOut(settings).apply(added.validations());
    assertEquals(
        new ValidationRounds(plan, Set.of()).perRound(),
        new ValidationRounds(added, out).perRound());
    assertEquals(plan.totalTrials(), added.totalTrials());
    assertEquals(plan.mostTrials(Set.of()), added.mostTrials(out));
    assertEquals(
        "  validation: restart/latency takes the runs of restart/tps, which is left out (the"
            + " defaults, or the same settings as PGTune-style or a pick validated)",
        ValidationStandIns.line(plan, added).orElseThrow().lines().findFirst().orElseThrow());
    // asked again (a resume), nothing more is added
    assertSame(added, ValidationStandIns.added(added, TRACKS, Goal.TPS, leftOut(settings)));
  }

  @Test
  void aPickThatIsTheDefaultsOrTheSameAsAPickValidatedTakesNoRuns() {
    // restart/latency is the pick validated as reload/tps; reload/latency is the defaults
    Map<String, String> settings =
        Map.of("restart/tps", "", "reload/tps", "a", "restart/latency", "a", "reload/latency", "");
    SessionPlan plan = defaultPlan();
    assertSame(plan, ValidationStandIns.added(plan, TRACKS, Goal.TPS, leftOut(settings)));

    // one of them qualifies: it takes the one free place, across tracks when its own has none
    settings =
        Map.of("restart/tps", "a", "reload/tps", "", "restart/latency", "a", "reload/latency", "c");
    assertEquals(
        Map.of("reload/latency", "reload/tps"),
        inPlaceOf(ValidationStandIns.added(plan, TRACKS, Goal.TPS, leftOut(settings))));
    settings =
        Map.of("restart/tps", "", "reload/tps", "b", "restart/latency", "", "reload/latency", "c");
    assertEquals(
        Map.of("reload/latency", "restart/tps"),
        inPlaceOf(ValidationStandIns.added(plan, TRACKS, Goal.TPS, leftOut(settings))));
    // two latency picks with the same settings: the first takes the runs, its twin none
    settings =
        Map.of("restart/tps", "", "reload/tps", "", "restart/latency", "d", "reload/latency", "d");
    assertEquals(
        Map.of("restart/latency", "restart/tps"),
        inPlaceOf(ValidationStandIns.added(plan, TRACKS, Goal.TPS, leftOut(settings))));
  }

  @Test
  void aPlanWithNothingLeftOutOrNothingMoreToValidateStaysAsItIs() {
    Map<String, String> none =
        Map.of(
            "restart/tps", "a", "reload/tps", "b", "restart/latency", "c", "reload/latency", "e");
    SessionPlan plan = defaultPlan();
    assertSame(plan, ValidationStandIns.added(plan, TRACKS, Goal.TPS, leftOut(none)));

    Map<String, String> defaults =
        Map.of("restart/tps", "", "reload/tps", "", "restart/latency", "", "reload/latency", "");
    SessionPlan all = plan("restart/tps", "pgtune", "reload/tps", "restart/latency");
    assertSame(all, ValidationStandIns.added(all, TRACKS, Goal.TPS, leftOut(defaults)));
    Map<String, String> latencyFound =
        Map.of("restart/tps", "", "reload/tps", "", "restart/latency", "", "reload/latency", "e");
    assertEquals(
        Map.of("reload/latency", "reload/tps"),
        inPlaceOf(ValidationStandIns.added(all, TRACKS, Goal.TPS, leftOut(latencyFound))));

    // a comparison's fixed rounds are never changed
    SessionPlan fixed =
        new SessionPlan(
            3,
            List.of(),
            List.of(),
            List.of(new SessionPlan.Validation("restart/tps", Track.RESTART)),
            3);
    assertSame(fixed, ValidationStandIns.added(fixed, TRACKS, Goal.TPS, leftOut(defaults)));
  }
}
