package org.pgknob.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class TextColumnsTest {
  @Test
  void aLongCellWidensItsColumnAndTheNextColumnStillLinesUp() {
    String grid = "8MB,16MB,32MB,64MB,128MB,256MB,512MB,1GB,2GB,4GB,8GB,16GB";
    String table =
        new TextColumns("knob", "grid", "default")
            .add("shared_buffers", grid, "128MB")
            .add("jit", "on,off", "on")
            .toString();
    String[] lines = table.split(System.lineSeparator());
    assertEquals(3, lines.length);
    int defaultColumn = lines[0].indexOf("default");
    assertEquals(defaultColumn, lines[1].lastIndexOf("128MB"), table);
    assertEquals(defaultColumn, lines[2].lastIndexOf("on"), table);
    assertEquals("shared_buffers  " + grid + "  128MB", lines[1]);
  }

  @Test
  void aRowWithTheWrongNumberOfCellsIsRefused() {
    assertThrows(IllegalArgumentException.class, () -> new TextColumns("a", "b").add("only one"));
  }
}
