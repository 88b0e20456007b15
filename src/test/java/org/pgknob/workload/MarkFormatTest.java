package org.pgknob.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The database marks of TPROC-C and pgbench, one format for both, as the comments read. */
class MarkFormatTest {
  static final MarkFormat TPROCC = new MarkFormat("tprocc", "warehouses", 1);
  static final MarkFormat PGBENCH = new MarkFormat("pgbench", "scale", 1);

  @Test
  void readsBackEveryMarkItWritesInTheCommentsEarlierVersionsWrote() {
    for (MarkFormat f : List.of(TPROCC, PGBENCH)) {
      for (DatabaseMark mark : List.of(f.live(4), f.pristine(12), f.building())) {
        assertEquals(Optional.of(mark), f.parse(mark.comment()));
      }
    }
    assertEquals("pgknob tprocc v1 warehouses=4", TPROCC.live(4).comment());
    assertEquals("pgknob tprocc v1 warehouses=4 pristine", TPROCC.pristine(4).comment());
    assertEquals("pgknob tprocc v1 building", TPROCC.building().comment());
    assertEquals("pgknob pgbench v1 scale=10 pristine", PGBENCH.pristine(10).comment());
  }

  @Test
  void doesNotClaimAUsersDatabaseNorAnotherWorkloads() {
    assertEquals(Optional.empty(), TPROCC.parse(""));
    assertEquals(Optional.empty(), TPROCC.parse(null));
    assertEquals(Optional.empty(), TPROCC.parse("orders of the shop"));
    assertEquals(Optional.empty(), PGBENCH.parse("pgknob tprocc v1 warehouses=4"));
    assertEquals(Optional.empty(), TPROCC.parse("pgknob pgbench v1 scale=1"));
  }

  @Test
  void recognisesAnotherVersionsSchema() {
    DatabaseMark other = TPROCC.parse("pgknob tprocc v2 warehouses=4").orElseThrow();
    assertFalse(other.isCurrentVersion());
    DatabaseMark unreadable = TPROCC.parse("pgknob tprocc schema 7 (w=3)").orElseThrow();
    assertFalse(unreadable.isCurrentVersion());
    assertFalse(unreadable.isFinished(DatabaseMark.Role.PRISTINE));
    assertTrue(TPROCC.isOurs("pgknob tprocc v2 warehouses=4"));
  }

  @Test
  void aPristineCopyUnderAResetSaysSoAndOnlyAPristineCopyCan() {
    DatabaseMark resetting = TPROCC.pristine(4).withResetting(true);
    assertEquals("pgknob tprocc v1 warehouses=4 pristine resetting", resetting.comment());
    assertEquals(Optional.of(resetting), TPROCC.parse(resetting.comment()));
    assertTrue(resetting.isFinished(DatabaseMark.Role.PRISTINE));
    assertEquals(TPROCC.pristine(4), resetting.withResetting(false));
    // on a live or building mark the word is not one this version writes
    assertFalse(
        TPROCC.parse("pgknob tprocc v1 warehouses=4 resetting").orElseThrow().isCurrentVersion());
    assertFalse(
        TPROCC.parse("pgknob tprocc v1 building resetting").orElseThrow().isCurrentVersion());
  }
}
