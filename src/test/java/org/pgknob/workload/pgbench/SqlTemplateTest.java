package org.pgknob.workload.pgbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The scripts' SQL built from templates is the text String.format would send, to the byte. */
class SqlTemplateTest {
  private static final List<String> SCRIPTS_SQL =
      List.of(
          SelectOnly.SELECT_BALANCE,
          TpcbLike.UPDATE_ACCOUNT,
          TpcbLike.SELECT_BALANCE,
          TpcbLike.UPDATE_TELLER,
          TpcbLike.UPDATE_BRANCH,
          TpcbLike.INSERT_HISTORY);

  @Test
  void fillsEveryScriptStatementAsStringFormatDoesForAnyInt() {
    SplittableRandom random = new SplittableRandom(15);
    int[] edges = {0, 1, -1, 9, 10, -5000, 5000, 1_000_000, Integer.MAX_VALUE, Integer.MIN_VALUE};
    for (String sql : SCRIPTS_SQL) {
      SqlTemplate template = SqlTemplate.of(sql);
      for (int trial = 0; trial < 200; trial++) {
        int[] values = new int[template.values()];
        for (int i = 0; i < values.length; i++) {
          values[i] = trial < edges.length ? edges[(trial + i) % edges.length] : random.nextInt();
        }
        Object[] boxed = java.util.Arrays.stream(values).boxed().toArray();
        assertEquals(String.format(Locale.ROOT, sql, boxed), template.fill(values));
      }
    }
  }

  @Test
  void countsTheValuesOfEachStatement() {
    assertEquals(1, SqlTemplate.of(SelectOnly.SELECT_BALANCE).values());
    assertEquals(4, SqlTemplate.of(TpcbLike.INSERT_HISTORY).values());
    assertEquals(0, SqlTemplate.of("END").values());
    assertEquals("END", SqlTemplate.of("END").fill());
  }

  @Test
  void refusesAnyFormatSpecifierButD() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> SqlTemplate.of("SELECT 1 WHERE x LIKE 'a%'"));
    assertEquals(
        "only %d may follow a % in a script's SQL, but got: SELECT 1 WHERE x LIKE 'a%'",
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> SqlTemplate.of("SELECT %s"));
  }

  @Test
  void refusesAWrongNumberOfValues() {
    SqlTemplate template = SqlTemplate.of(TpcbLike.UPDATE_ACCOUNT);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> template.fill(1));
    assertEquals("the SQL takes 2 values, but got 1", e.getMessage());
  }
}
