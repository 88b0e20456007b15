package org.pgknob.workload.tprocc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class DatabaseMarkTest {
  @Test
  void readsBackEveryMarkItWrites() {
    for (DatabaseMark mark :
        new DatabaseMark[] {
          DatabaseMark.live(4), DatabaseMark.pristine(12), DatabaseMark.building()
        }) {
      assertEquals(Optional.of(mark), DatabaseMark.parse(mark.comment()));
    }
    assertEquals("pgknob tprocc v1 warehouses=4", DatabaseMark.live(4).comment());
  }

  @Test
  void doesNotClaimAUsersDatabase() {
    assertEquals(Optional.empty(), DatabaseMark.parse(""));
    assertEquals(Optional.empty(), DatabaseMark.parse(null));
    assertEquals(Optional.empty(), DatabaseMark.parse("orders of the shop"));
  }

  @Test
  void recognisesAnotherVersionsSchema() {
    DatabaseMark other = DatabaseMark.parse("pgknob tprocc v2 warehouses=4").orElseThrow();
    assertFalse(other.isCurrentVersion());
    DatabaseMark unreadable = DatabaseMark.parse("pgknob tprocc schema 7 (w=3)").orElseThrow();
    assertFalse(unreadable.isCurrentVersion());
    assertTrue(DatabaseMark.isPgknobComment("pgknob tprocc v2 warehouses=4"));
  }
}
