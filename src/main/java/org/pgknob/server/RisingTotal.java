package org.pgknob.server;

/**
 * How much a running total of CPU ticks rose between readings, measured against the highest total
 * read so far rather than the last one. A process tree's total dips for one reading when a child is
 * reaped between the reading of its parent and its own (the child is gone, its time not yet in the
 * parent's), and comes back in the next: against the last reading the come-back would count twice.
 */
final class RisingTotal {
  private long highest = -1;

  /**
   * The rise of {@code total} above the highest total before it; 0 for the first reading, for one
   * that did not rise, and for a total that could not be read (negative).
   */
  long rise(long total) {
    if (total < 0) {
      return 0;
    }
    long rise = highest < 0 ? 0 : Math.max(0, total - highest);
    highest = Math.max(highest, total);
    return rise;
  }
}
