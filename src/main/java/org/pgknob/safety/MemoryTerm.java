package org.pgknob.safety;

import org.pgknob.space.PgUnit;

/**
 * One term of the predicted memory: e.g. {@code sorts_and_hashes = active_connections x work_mem x
 * hash_mem_multiplier x 2 = 128 MiB}.
 *
 * @param name the term's name in the rules file
 * @param bytes what it comes to
 * @param formula the factors with their values, for people
 */
public record MemoryTerm(String name, long bytes, String formula) {
  @Override
  public String toString() {
    return name + " " + PgUnit.readableBytes(bytes) + " (" + formula + ")";
  }
}
