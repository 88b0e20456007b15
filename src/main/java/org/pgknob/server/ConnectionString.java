package org.pgknob.server;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.pgknob.PgknobException;

/**
 * The three ways people name a PostgreSQL server, as one JDBC URL: a JDBC URL as it is, a libpq URI
 * ({@code postgresql://user@db:5432/app?sslmode=require}) and a libpq keyword/value string ({@code
 * host=db port=5432 dbname=app user=tuner}). The user goes into the URL's {@code user} parameter. A
 * password in a URI or conninfo is refused, as in a JDBC URL: command lines are visible to every
 * user of the host.
 */
public final class ConnectionString {
  /** libpq keywords and the JDBC parameter each becomes; host, port, dbname, user are the URL's. */
  private static final Map<String, String> PASSED_ON =
      Map.of(
          "sslmode", "sslmode",
          "sslrootcert", "sslrootcert",
          "sslcert", "sslcert",
          "sslkey", "sslkey",
          "application_name", "ApplicationName",
          "connect_timeout", "connectTimeout");

  static final String NO_PASSWORD_FIX =
      "remove it and use PGPASSWORD, ~/.pgpass or --password-file";

  private ConnectionString() {}

  /**
   * {@code text} as a {@code jdbc:postgresql://} URL.
   *
   * @throws PgknobException for a password inside, a keyword pgknob cannot pass on, or text that is
   *     none of the three forms
   */
  public static String toJdbcUrl(String text) {
    String t = text.strip();
    if (t.startsWith("jdbc:")) {
      return t;
    }
    if (t.startsWith("postgresql://") || t.startsWith("postgres://")) {
      return fromUri(t);
    }
    if (t.contains("=")) {
      return fromKeywords(parseKeywords(t));
    }
    throw new PgknobException(
        "'" + t + "' is not a connection string pgknob knows",
        "give jdbc:postgresql://HOST:PORT/DB, postgresql://USER@HOST:PORT/DB or 'host=HOST"
            + " port=PORT dbname=DB user=USER'");
  }

  /** libpq keywords to a JDBC URL; also used for the PG* environment and pg_service.conf. */
  public static String fromKeywords(Map<String, String> keywords) {
    Map<String, String> k = new LinkedHashMap<>(keywords);
    if (k.containsKey("password")) {
      throw new PgknobException(
          "the connection string carries a password, which other users could read in the process"
              + " list",
          NO_PASSWORD_FIX);
    }
    String host = k.remove("host");
    String hostaddr = k.remove("hostaddr");
    if (hostaddr != null && !hostaddr.isBlank()) {
      host = hostaddr; // libpq connects to hostaddr when both are given
    }
    if (host == null || host.isBlank()) {
      host = "localhost";
    }
    if (host.startsWith("/")) {
      throw new PgknobException(
          "host " + host + " is a Unix-domain socket folder, which pgknob (JDBC) cannot reach",
          "give the server's TCP address, e.g. host=localhost");
    }
    if (host.contains(",")) {
      throw new PgknobException(
          "the connection string names several hosts (" + host + ")",
          "give the one server pgknob should tune");
    }
    String port = k.remove("port");
    String dbname = k.remove("dbname");
    String user = k.remove("user");
    StringBuilder url =
        new StringBuilder("jdbc:postgresql://")
            .append(host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host);
    if (port != null && !port.isBlank()) {
      if (!port.strip().matches("\\d{1,5}")) {
        throw new PgknobException("port '" + port + "' is not a number", "give e.g. port=5432");
      }
      url.append(':').append(port.strip());
    }
    url.append('/').append(encode(dbname == null || dbname.isBlank() ? "postgres" : dbname));
    Map<String, String> params = new LinkedHashMap<>();
    if (user != null && !user.isBlank()) {
      params.put("user", user);
    }
    for (Map.Entry<String, String> e : k.entrySet()) {
      String jdbcName = PASSED_ON.get(e.getKey());
      if (jdbcName == null) {
        throw new PgknobException(
            "connection keyword '" + e.getKey() + "' is not one pgknob passes on",
            "use host, port, dbname, user, sslmode, sslrootcert, sslcert, sslkey,"
                + " application_name or connect_timeout, or a JDBC URL for driver options");
      }
      params.put(jdbcName, e.getValue());
    }
    String sep = "?";
    for (Map.Entry<String, String> e : params.entrySet()) {
      url.append(sep).append(e.getKey()).append('=').append(encode(e.getValue()));
      sep = "&";
    }
    return url.toString();
  }

  /** postgresql://[user[:password]@][host][:port][/dbname][?keyword=value&...] */
  private static String fromUri(String uri) {
    String rest = uri.substring(uri.indexOf("://") + 3);
    Map<String, String> k = new LinkedHashMap<>();
    int q = rest.indexOf('?');
    String query = q < 0 ? "" : rest.substring(q + 1);
    rest = q < 0 ? rest : rest.substring(0, q);
    int slash = rest.indexOf('/');
    if (slash >= 0) {
      String db = decode(rest.substring(slash + 1));
      if (!db.isEmpty()) {
        k.put("dbname", db);
      }
      rest = rest.substring(0, slash);
    }
    int at = rest.lastIndexOf('@');
    if (at >= 0) {
      String userinfo = rest.substring(0, at);
      rest = rest.substring(at + 1);
      int colon = userinfo.indexOf(':');
      if (colon >= 0) {
        throw new PgknobException(
            "the URI carries a password (user:password@), which other users could read in the"
                + " process list",
            NO_PASSWORD_FIX);
      }
      if (!userinfo.isEmpty()) {
        k.put("user", decode(userinfo));
      }
    }
    String host = rest;
    if (host.startsWith("[")) {
      int close = host.indexOf(']');
      if (close > 0 && close + 1 < host.length() && host.charAt(close + 1) == ':') {
        k.put("port", host.substring(close + 2));
      }
      host = close > 0 ? host.substring(1, close) : host;
    } else if (host.indexOf(':') >= 0 && !host.contains(",")) {
      k.put("port", host.substring(host.indexOf(':') + 1));
      host = host.substring(0, host.indexOf(':'));
    }
    if (!host.isEmpty()) {
      k.put("host", decode(host));
    }
    for (String pair : query.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String key = decode(eq < 0 ? pair : pair.substring(0, eq)).toLowerCase(Locale.ROOT);
      k.put(key, eq < 0 ? "" : decode(pair.substring(eq + 1)));
    }
    return fromKeywords(k);
  }

  /** {@code key=value key='quoted value'}, as libpq reads a conninfo string. */
  static Map<String, String> parseKeywords(String text) {
    Map<String, String> out = new LinkedHashMap<>();
    int i = 0;
    int n = text.length();
    while (i < n) {
      while (i < n && Character.isWhitespace(text.charAt(i))) {
        i++;
      }
      if (i >= n) {
        break;
      }
      int keyStart = i;
      while (i < n && text.charAt(i) != '=' && !Character.isWhitespace(text.charAt(i))) {
        i++;
      }
      String key = text.substring(keyStart, i).toLowerCase(Locale.ROOT);
      while (i < n && Character.isWhitespace(text.charAt(i))) {
        i++;
      }
      if (i >= n || text.charAt(i) != '=') {
        throw new PgknobException(
            "'" + key + "' in the connection string has no value",
            "write key=value pairs, e.g. 'host=db port=5432'");
      }
      i++;
      while (i < n && Character.isWhitespace(text.charAt(i))) {
        i++;
      }
      StringBuilder value = new StringBuilder();
      if (i < n && text.charAt(i) == '\'') {
        i++;
        while (i < n && text.charAt(i) != '\'') {
          if (text.charAt(i) == '\\' && i + 1 < n) {
            i++;
          }
          value.append(text.charAt(i++));
        }
        if (i >= n) {
          throw new PgknobException(
              "unterminated quoted value of '" + key + "' in the connection string",
              "close the value with '");
        }
        i++;
      } else {
        while (i < n && !Character.isWhitespace(text.charAt(i))) {
          if (text.charAt(i) == '\\' && i + 1 < n) {
            i++;
          }
          value.append(text.charAt(i++));
        }
      }
      out.put(key, value.toString());
    }
    return out;
  }

  private static String decode(String s) {
    return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
