package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pgknob.server.ManagedCluster;
import org.pgknob.session.SessionFolder;
import org.pgknob.session.SessionInputs;
import org.pgknob.testing.Cli;
import org.pgknob.testing.SessionPostgres;
import org.pgknob.trial.Phase;
import org.pgknob.trial.TrialResult;
import org.pgknob.workload.SecondSample;

/**
 * {@code tune --duration auto} through {@code --workload-cmd} with a synthetic workload that prints
 * the TPS of each second of the window it is told (src/test/resources/fixtures/window): a workload
 * whose seconds scatter widely gets a window longer than its baselines', the plan and its ETA are
 * remade for it, the command is told the new window, and session.json keeps "auto" with the chosen
 * seconds for resume, report and compare.
 *
 * <p>Budget 13 trials or 10 minutes, one track: trials of 15 s windows are estimated at 25 s and 30
 * s windows at 40 s, so both fit 13 trials while 60 s windows would not; the command answers at
 * once, so the sessions take seconds whatever the window.
 */
class AutoWindowSessionTest {
  private static final Path SCRIPT = Path.of("src/test/resources/fixtures/window/noisy-seconds.sh");

  @TempDir Path dir;

  private final StringWriter out = new StringWriter();

  private String tune(String noise, String name) {
    out.getBuffer().setLength(0);
    ManagedCluster cluster = SessionPostgres.cluster();
    StringWriter err = new StringWriter();
    int exit =
        Cli.run(
            out,
            err,
            "tune",
            "--cluster-dir",
            cluster.clusterDir().toString(),
            "--workload-cmd",
            "sh " + SCRIPT.toAbsolutePath() + " " + noise + " " + dir.resolve(name + ".state"),
            "--budget",
            "13,10m",
            "--tracks",
            "reload",
            "--rampup",
            "1s",
            "--duration",
            "auto",
            "--out",
            dir.resolve(name).toString());
    assertEquals(0, exit, out + "\n" + err);
    return out.toString();
  }

  private SessionFolder folder(String name) throws Exception {
    try (var folders = Files.list(dir.resolve(name))) {
      return SessionFolder.open(folders.findFirst().orElseThrow());
    }
  }

  @Test
  void noisySecondsGetALongerWindowAndThePlanIsRemadeForIt() throws Exception {
    // The quiet counterpart (a workload whose runs differ more than its seconds: 15 s kept) is
    // WindowDecisionTest's, on synthetic trials: a second session would double this test's time.
    String noisy = tune("0.5", "noisy");
    Matcher chosen =
        Pattern.compile("window: (\\d+) s chosen \\(--duration auto\\): ").matcher(noisy);
    assertTrue(chosen.find(), noisy);
    int seconds = Integer.parseInt(chosen.group(1));
    assertTrue(seconds > 15, noisy);

    // The plan's ETA is remade with the longer trials.
    String first = line(noisy, "plan: ");
    String remade = line(noisy, "plan remade: ");
    assertTrue(remade.startsWith("plan remade: 13 trials, 3 done, the rest of about "), remade);
    assertNotEquals(perTrial(first), perTrial(remade), first + "\n" + remade);

    // session.json: "auto" and the seconds chosen; the inputs a resume reads use them.
    SessionFolder session = folder("noisy");
    Map<String, Object> inputs = session.readState().inputs();
    assertEquals("auto", inputs.get("duration"));
    assertEquals(
        seconds, ((Number) ((Map<?, ?>) inputs.get("autoWindow")).get("chosenSeconds")).intValue());
    assertEquals(seconds, SessionInputs.fromMap(inputs).windowSeconds());

    // The command was told each window: the baselines 15 s, every later trial the chosen length.
    List<TrialResult> trials = session.trials().read().trials();
    // Validation may stop early and leave out a pick equal to the defaults: fewer than 13.
    assertTrue(trials.size() > 3, "no trial after the baselines");
    for (TrialResult t : trials) {
      long measured = t.workload().timeline().stream().filter(SecondSample::measured).count();
      assertEquals(t.phase() == Phase.BASELINE && t.trial() <= 3 ? 15 : seconds, measured, "" + t);
    }
  }

  private static String line(String log, String start) {
    return log.lines()
        .filter(l -> l.startsWith(start))
        .findFirst()
        .orElseThrow(() -> new AssertionError(log));
  }

  /** "25 s" of "... of about 25 s (about ...". */
  private static String perTrial(String planLine) {
    Matcher m = Pattern.compile("of about (\\d+ s)").matcher(planLine);
    assertTrue(m.find(), planLine);
    return m.group(1);
  }
}
