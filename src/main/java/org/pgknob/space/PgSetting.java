package org.pgknob.space;

import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pgknob.PgknobException;

/**
 * One row of the server's {@code pg_settings}: what a knob is bound against.
 *
 * @param name the setting
 * @param vartype bool, integer, real, string or enum
 * @param unit the unit of {@code minVal}, {@code maxVal}, {@code bootVal} and {@code setting}, or
 *     empty
 * @param minVal the least value (numeric settings), else NaN
 * @param maxVal the greatest value (numeric settings), else NaN
 * @param bootVal the compiled-in default
 * @param setting the current value
 * @param context when a change applies: postmaster (restart), sighup, superuser, user, ...
 * @param enumvals the values an enum setting accepts, else empty
 * @param source where the current value comes from: default, configuration file, override, ...
 */
public record PgSetting(
    String name,
    String vartype,
    String unit,
    double minVal,
    double maxVal,
    String bootVal,
    String setting,
    String context,
    List<String> enumvals,
    String source) {

  public PgSetting {
    unit = unit == null ? "" : unit;
    enumvals = enumvals == null ? List.of() : List.copyOf(enumvals);
    source = source == null ? "" : source;
  }

  /**
   * This setting with {@code newSetting} in force, in pg_settings' form (a plain number in the
   * setting's unit, or the word).
   */
  public PgSetting withSetting(String newSetting) {
    return new PgSetting(
        name, vartype, unit, minVal, maxVal, bootVal, newSetting, context, enumvals, source);
  }

  /** Settings of this context apply only when the server restarts. */
  public static final String RESTART_CONTEXT = "postmaster";

  public boolean needsRestart() {
    return RESTART_CONTEXT.equals(context);
  }

  /** Settings of these contexts cannot be changed at all. */
  public boolean isFixed() {
    return "internal".equals(context);
  }

  /** Every row of pg_settings, by name. */
  public static Map<String, PgSetting> readAll(Connection conn) {
    Map<String, PgSetting> out = new LinkedHashMap<>();
    String sql =
        "SELECT name, vartype, unit, min_val, max_val, boot_val, setting, context, enumvals,"
            + " source"
            + " FROM pg_settings ORDER BY name";
    try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        Array enums = rs.getArray(9);
        List<String> enumvals =
            enums == null ? List.of() : Arrays.asList((String[]) enums.getArray());
        out.put(
            rs.getString(1),
            new PgSetting(
                rs.getString(1),
                rs.getString(2),
                rs.getString(3),
                number(rs.getString(4)),
                number(rs.getString(5)),
                rs.getString(6),
                rs.getString(7),
                rs.getString(8),
                enumvals,
                rs.getString(10)));
      }
    } catch (SQLException e) {
      throw new PgknobException(
          "cannot read pg_settings: " + e.getMessage(), "check the connection to the server", e);
    }
    return out;
  }

  /** The server's major version (e.g. 18) from server_version_num. */
  public static int serverMajor(Connection conn) {
    try (Statement st = conn.createStatement();
        ResultSet rs = st.executeQuery("SELECT current_setting('server_version_num')::int")) {
      rs.next();
      return rs.getInt(1) / 10000;
    } catch (SQLException e) {
      throw new PgknobException(
          "cannot read the server version: " + e.getMessage(), "check the connection", e);
    }
  }

  private static double number(String text) {
    return text == null ? Double.NaN : Double.parseDouble(text);
  }
}
