package org.pgknob.session;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.pgknob.optimize.KnobSensitivity;
import org.pgknob.optimize.SweepAnalysis;
import org.pgknob.runs.Track;
import org.pgknob.space.Configuration;
import org.pgknob.space.Knob;
import org.pgknob.space.PgUnit;
import org.pgknob.space.SearchSpace;

/**
 * What a track's Bayesian phase tries first, as a DBA would (issue 16, "knowledge first"): the best
 * sweep values combined, the PGTune-style configuration, and the PGTune-style configuration with
 * the best sweep values on top. Each anchor is restricted to the track's knobs, so the reload track
 * tries PGTune-style's reload settings (random_page_cost, work_mem, max_wal_size, ...), which need
 * no restart and are often most of its gain. Only knobs whose sweep showed an effect, or whose best
 * value led the defaults by more than the noise, count as a best value ({@link #bestSweepValues}).
 */
final class BayesAnchors {
  private BayesAnchors() {}

  static List<Configuration> of(
      Track track, SearchSpace space, Map<String, String> pgTune, SweepAnalysis sweeps) {
    Configuration best = bestSweepValues(space, sweeps);
    List<Configuration> out = new ArrayList<>();
    if (!best.isEmpty()) {
      out.add(best);
    }
    Configuration calculated = fromSettings(space, pgTune);
    if (!calculated.isEmpty()) {
      out.add(calculated);
      if (!best.isEmpty() && !best.over(calculated).equals(calculated)) {
        out.add(best.over(calculated));
      }
    }
    return out;
  }

  /**
   * Each knob of the space at its sweep's best value, when that value leads the defaults beyond the
   * noise ({@link KnobSensitivity#bestLeadsBeyondNoise}): an effect, or a curve within noise whose
   * best leads by more than one noise standard deviation. Why the lower bar than an effect: an
   * anchor is a trial to try, which the track's first race weighs against PGTune-style by paired
   * runs; with the effect bar alone, at 7% noise, the restart track of half the noise bench's
   * sessions never tried PGTune-style with the sweep's shared_buffers (the optimum there), and its
   * pick was PGTune-style's 70% of the achievable gain.
   */
  static Configuration bestSweepValues(SearchSpace space, SweepAnalysis sweeps) {
    Configuration out = Configuration.empty();
    for (KnobSensitivity s : sweeps.ranking()) {
      if (s.bestLeadsBeyondNoise() && space.contains(s.knob())) {
        out = out.with(s.knob(), space.knob(s.knob()).normalize(s.bestValue()));
      }
    }
    return out;
  }

  /**
   * Settings as PostgreSQL takes them ({@code shared_buffers=6GB}) as values of the space's knobs,
   * in each knob's unit and range; settings of other knobs, and values a knob cannot hold, are left
   * out.
   */
  static Configuration fromSettings(SearchSpace space, Map<String, String> settings) {
    Configuration out = Configuration.empty();
    for (var e : settings.entrySet()) {
      if (!space.contains(e.getKey())) {
        continue;
      }
      Knob k = space.knob(e.getKey());
      Optional<Object> value = value(k, e.getValue());
      if (value.isPresent()) {
        out = out.with(k.name(), value.get());
      }
    }
    return out;
  }

  private static Optional<Object> value(Knob k, String text) {
    try {
      if (!k.isNumeric()) {
        return Optional.of(k.normalize(text));
      }
      PgUnit unit = PgUnit.parse(k.unit()).orElse(PgUnit.NONE);
      Optional<BigDecimal> number = PgUnit.Quantity.parse(text.trim()).flatMap(q -> q.in(unit));
      return number.map(n -> k.normalize(n.doubleValue()));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
