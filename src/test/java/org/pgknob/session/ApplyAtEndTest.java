package org.pgknob.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pgknob.PgknobException;

/** {@code --apply} as a type: the words users type, and session.json's boolean as it was. */
class ApplyAtEndTest {
  @Test
  void theWordsUsersTypeNameTheChoices() {
    assertEquals(ApplyAtEnd.NONE, ApplyAtEnd.of("none"));
    assertEquals(ApplyAtEnd.BEST, ApplyAtEnd.of("best"));
    PgknobException e = assertThrows(PgknobException.class, () -> ApplyAtEnd.of("BEST"));
    assertEquals("--apply takes none or best, but got 'BEST'", e.getMessage());
  }

  @Test
  void sessionJsonKeepsApplyBestAsABoolean() {
    for (boolean best : new boolean[] {true, false}) {
      Map<String, Object> m = TinyInputs.map("12", List.of("reload"));
      m.put("applyBest", best);
      SessionInputs inputs = SessionInputs.fromMap(m);
      assertEquals(best ? ApplyAtEnd.BEST : ApplyAtEnd.NONE, inputs.apply());
      assertEquals(best, inputs.toMap().get("applyBest"));
    }
  }
}
