package org.pgknob.workload.selectone;

import java.util.List;
import java.util.Map;
import org.pgknob.workload.OptionValues;
import org.pgknob.workload.WorkloadKind;
import org.pgknob.workload.WorkloadSpec;

/**
 * A third workload, added as a plug-in is: this folder plus one line in
 * src/test/resources/META-INF/services/org.pgknob.workload.WorkloadKind. Nothing else in pgknob
 * names it.
 */
public final class SelectOneKind implements WorkloadKind {
  static final String NAME = "select-one";

  @Override
  public List<String> names() {
    return List.of(NAME);
  }

  @Override
  public WorkloadSpec spec(String name, Map<String, Object> options) {
    return new SelectOneSpec(OptionValues.intOf(options, DEFAULT_USERS, "users"));
  }
}
