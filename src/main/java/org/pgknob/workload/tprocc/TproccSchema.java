package org.pgknob.workload.tprocc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** The DDL resource files: tables, keys and indexes, transaction functions. */
final class TproccSchema {
  static final String TABLES = "tables.sql";
  static final String KEYS = "keys.sql";
  static final String FUNCTIONS = "functions.sql";

  /** The nine tables, in load order. */
  static final List<String> TABLE_NAMES =
      List.of(
          "item",
          "warehouse",
          "district",
          "stock",
          "customer",
          "history",
          "orders",
          "order_line",
          "new_order");

  private TproccSchema() {}

  static String resource(String name) {
    try (InputStream in = TproccSchema.class.getResourceAsStream("/tprocc/" + name)) {
      if (in == null) {
        throw new IllegalStateException("resource /tprocc/" + name + " is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs a whole resource file as one multi-statement script. */
  static void execute(Connection c, String name) throws SQLException {
    try (Statement st = c.createStatement()) {
      st.execute(resource(name));
    }
  }

  /** The statements of a file of one-line statements (keys.sql), without comments. */
  static List<String> statements(String name) {
    List<String> out = new ArrayList<>();
    for (String line : resource(name).split("\n")) {
      String trimmed = line.trim();
      if (!trimmed.isEmpty() && !trimmed.startsWith("--")) {
        out.add(trimmed.endsWith(";") ? trimmed.substring(0, trimmed.length() - 1) : trimmed);
      }
    }
    return out;
  }
}
