package org.pgknob.session;

import java.util.OptionalLong;
import org.pgknob.PgknobException;
import org.pgknob.safety.ConnectionOverhead;
import org.pgknob.server.ProcessSampler;
import org.pgknob.server.Target;

/**
 * The memory of one idle connection that the memory rule's {@code per_connection} factor uses, as a
 * session and {@code pgknob compare} both take it: measured on a server of this host whose
 * processes' PSS can be read, else the rules file's fallback. One place, so that a configuration a
 * session accepted is not refused by a comparison of the same session on the same server (with the
 * fallback's 10 MB a connection, 100 connections add about 1 GB to the prediction).
 */
final class ConnectionCost {
  private ConnectionCost() {}

  /**
   * @param fallbackBytes the rules file's figure, kept when nothing can be measured
   */
  static long of(Target target, long fallbackBytes) {
    OptionalLong pid = target.facts().postmasterPid();
    if (pid.isEmpty()) {
      return fallbackBytes;
    }
    try (ProcessSampler sampler = new ProcessSampler(pid.getAsLong())) {
      return sampler.pssReadable()
          ? ConnectionOverhead.measure(target, "postgres", sampler, 4)
          : fallbackBytes;
    } catch (PgknobException e) {
      return fallbackBytes;
    }
  }
}
