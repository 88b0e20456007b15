package org.pgknob.workload;

/**
 * Progress of a long preparation, one phase at a time (load, indexes, analyze, ...). {@link
 * #advance} may be called from several threads at once.
 */
public interface Progress {
  Progress SILENT =
      new Progress() {
        @Override
        public void begin(String phase, long totalUnits, String unit) {}

        @Override
        public void advance(long units) {}

        @Override
        public void end() {}
      };

  /** A phase starts; {@code totalUnits} is an estimate (0 when unknown), {@code unit} its name. */
  void begin(String phase, long totalUnits, String unit);

  /** {@code units} more of the current phase are done. */
  void advance(long units);

  /** The current phase is done. */
  void end();
}
