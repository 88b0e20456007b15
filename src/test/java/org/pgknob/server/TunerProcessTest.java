package org.pgknob.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class TunerProcessTest {
  @Test
  void thisJvmTravelsThroughTheVariableAndIsOnThisHost() {
    TunerProcess me = TunerProcess.current().orElseThrow();
    assertEquals(ProcessHandle.current().pid(), me.pid());
    assertTrue(me.startTicks() > 0, me.toString());
    assertEquals(Optional.of(me), TunerProcess.parse(me.envValue()));
    assertTrue(me.onThisHost());
  }

  @Test
  void aProcessOfAnotherBootIsNotOnThisHost() {
    TunerProcess me = TunerProcess.current().orElseThrow();
    assertFalse(new TunerProcess("0-other-boot", me.pid(), me.startTicks()).onThisHost());
  }

  @Test
  void aValueTheAgentCannotReadLeavesTheTunerAmongOtherProcesses() {
    for (String bad : new String[] {null, "", "abc", "boot 12", "boot x 3", "boot 1 2 3"}) {
      assertEquals(Optional.empty(), TunerProcess.parse(bad), String.valueOf(bad));
    }
  }

  /** A pid that now belongs to another process (another start tick) is not the tuner. */
  @Test
  void aSamplerCountsTheTunerOnlyWhenItsPidStillNamesIt() {
    TunerProcess me = TunerProcess.current().orElseThrow();
    ProcessSampler sampler = new ProcessSampler(me.pid());
    assertFalse(
        sampler.countTunerAsOwn(new TunerProcess(me.bootId(), me.pid(), me.startTicks() + 1)));
    assertTrue(sampler.countTunerAsOwn(me));
  }
}
