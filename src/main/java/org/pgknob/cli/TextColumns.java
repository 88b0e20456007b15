package org.pgknob.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table whose columns are as wide as their widest cell, so a long value (a search
 * space's grid, a knob's name) pushes its column instead of breaking the rows after it. Cells are
 * left-aligned, two spaces apart, and trailing blanks are cut.
 */
final class TextColumns {
  private final List<String[]> rows = new ArrayList<>();

  TextColumns(String... header) {
    rows.add(header);
  }

  TextColumns add(String... cells) {
    if (cells.length != rows.get(0).length) {
      throw new IllegalArgumentException(
          "a row of " + cells.length + " cells in a table of " + rows.get(0).length + " columns");
    }
    rows.add(cells);
    return this;
  }

  @Override
  public String toString() {
    int[] width = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int c = 0; c < row.length; c++) {
        width[c] = Math.max(width[c], row[c].length());
      }
    }
    StringBuilder b = new StringBuilder();
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int c = 0; c < row.length; c++) {
        line.append(c == 0 ? "" : "  ")
            .append(row[c])
            .append(" ".repeat(width[c] - row[c].length()));
      }
      b.append(line.toString().stripTrailing()).append(System.lineSeparator());
    }
    return b.toString();
  }
}
