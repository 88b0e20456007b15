package org.pgknob.safety;

import java.util.List;

/**
 * What the safety rules say of a configuration before anything is applied: accepted, or rejected
 * with reasons. Either way it carries the memory prediction and the terms that made it.
 *
 * @param accepted true when no rule refused it
 * @param predictedBytes the predicted memory of the server with this configuration
 * @param limitBytes the memory limit (limit fraction x RAM)
 * @param terms the prediction's terms, in the rules file's order
 * @param reasons why it was refused (empty when accepted), one sentence each
 */
public record Verdict(
    boolean accepted,
    long predictedBytes,
    long limitBytes,
    List<MemoryTerm> terms,
    List<String> reasons) {
  public Verdict {
    terms = List.copyOf(terms);
    reasons = List.copyOf(reasons);
  }

  /** The reasons as one line, or empty. */
  public String reason() {
    return String.join("; ", reasons);
  }
}
