package org.pgknob.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;

class ConfFileTest {
  @Test
  void readsQuotedUnquotedAndUnitValuesAndSkipsComments() {
    String text =
        """
        # a comment line
        shared_buffers = 1GB          # trailing comment
        work_mem='8MB'
        random_page_cost 1.1
          Jit = off
        log_line_prefix = '%m [%p] it''s # not a comment \\\\ \\' x'

        checkpoint_completion_target = 0.9
        shared_buffers = '2GB'
        """;
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("work_mem", "8MB");
    expected.put("random_page_cost", "1.1");
    expected.put("jit", "off");
    expected.put("log_line_prefix", "%m [%p] it's # not a comment \\ ' x");
    expected.put("checkpoint_completion_target", "0.9");
    expected.put("shared_buffers", "2GB");
    assertEquals(expected, ConfFile.parse("test.conf", text));
  }

  @Test
  void namesTheLineOfABadSetting() {
    PgknobException e =
        assertThrows(
            PgknobException.class,
            () -> ConfFile.parse("best.conf", "jit = off\nwork_mem = '8MB\n"));
    assertEquals(
        "best.conf line 2: unterminated quoted value: work_mem = '8MB (close the value with ')",
        e.oneLine());
    assertThrows(PgknobException.class, () -> ConfFile.parse("x", "= 3"));
    assertThrows(PgknobException.class, () -> ConfFile.parse("x", "a = 1 2"));
    assertThrows(PgknobException.class, () -> ConfFile.parse("x", "include 'other.conf'"));
  }
}
