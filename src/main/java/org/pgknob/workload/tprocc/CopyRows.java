package org.pgknob.workload.tprocc;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.LongConsumer;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;

/**
 * Streams rows into one table with COPY FROM STDIN in text format. The loader's values never hold
 * tabs, newlines or backslashes, so no escaping is needed.
 */
final class CopyRows implements AutoCloseable {
  private static final int FLUSH_CHARS = 1 << 17;

  private final CopyIn copy;
  private final LongConsumer rowsWritten;
  private final StringBuilder buffer = new StringBuilder(FLUSH_CHARS + 4096);
  private long pendingRows;
  private boolean rowStarted;
  private boolean ended;

  CopyRows(Connection connection, String table, LongConsumer rowsWritten) throws SQLException {
    this.copy =
        connection.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + table + " FROM STDIN");
    this.rowsWritten = rowsWritten;
  }

  private StringBuilder next() {
    if (rowStarted) {
      buffer.append('\t');
    }
    rowStarted = true;
    return buffer;
  }

  CopyRows add(String value) {
    next().append(value);
    return this;
  }

  CopyRows add(long value) {
    next().append(value);
    return this;
  }

  CopyRows addNull() {
    next().append("\\N");
    return this;
  }

  /** A fixed-point number of {@code scale} decimals from its unscaled value (cents: scale 2). */
  CopyRows addDecimal(long unscaled, int scale) {
    StringBuilder b = next();
    if (unscaled < 0) {
      b.append('-');
      unscaled = -unscaled;
    }
    long factor = (long) Math.pow(10, scale);
    b.append(unscaled / factor).append('.');
    String fraction = Long.toString(unscaled % factor);
    for (int i = fraction.length(); i < scale; i++) {
      b.append('0');
    }
    b.append(fraction);
    return this;
  }

  CopyRows endRow() throws SQLException {
    buffer.append('\n');
    rowStarted = false;
    pendingRows++;
    if (buffer.length() >= FLUSH_CHARS) {
      flush();
    }
    return this;
  }

  private void flush() throws SQLException {
    byte[] bytes = buffer.toString().getBytes(StandardCharsets.UTF_8);
    copy.writeToCopy(bytes, 0, bytes.length);
    buffer.setLength(0);
    rowsWritten.accept(pendingRows);
    pendingRows = 0;
  }

  /** Sends the rest and ends the COPY. */
  @Override
  public void close() throws SQLException {
    if (ended) {
      return;
    }
    ended = true;
    if (!copy.isActive()) {
      return;
    }
    flush();
    copy.endCopy();
  }
}
