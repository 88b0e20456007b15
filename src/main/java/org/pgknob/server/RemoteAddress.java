package org.pgknob.server;

import java.util.Locale;
import java.util.Properties;
import org.pgknob.PgknobException;
import org.postgresql.Driver;

/**
 * The parts of a PostgreSQL JDBC URL pgknob needs: host, port, database, user, and whether it
 * (wrongly) carries a password. libpq URIs and keyword/value strings are taken too ({@link
 * ConnectionString}).
 *
 * @param jdbcUrl the URL in {@code jdbc:postgresql://} form
 */
public record RemoteAddress(
    String jdbcUrl, String host, int port, String database, String user, boolean hasPassword) {

  public static RemoteAddress parse(String url) {
    String jdbc = ConnectionString.toJdbcUrl(url); // libpq URIs and conninfo too
    Properties props = Driver.parseURL(jdbc, new Properties());
    if (props == null) {
      throw new PgknobException(
          "'" + redact(url) + "' is not a PostgreSQL JDBC URL",
          "write it as jdbc:postgresql://HOST:PORT/DATABASE");
    }
    String host = props.getProperty("PGHOST", "localhost");
    String port = props.getProperty("PGPORT", "5432");
    if (host.contains(",")) {
      throw new PgknobException(
          "the URL names several hosts (" + host + ")",
          "give the URL of the one server pgknob should tune");
    }
    return new RemoteAddress(
        jdbc,
        host,
        Integer.parseInt(port),
        props.getProperty("PGDBNAME", "postgres"),
        props.getProperty("user"),
        props.getProperty("password") != null);
  }

  /** {@code host:port}, IPv6 hosts in brackets. */
  public String hostPort() {
    return (host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
  }

  /** True for a host name that always means this machine. */
  public boolean isLoopback() {
    String h = host.toLowerCase(Locale.ROOT);
    return h.equals("localhost") || h.equals("127.0.0.1") || h.equals("::1") || h.equals("[::1]");
  }

  /** The URL with any password parameter's value blanked, for messages. */
  static String redact(String url) {
    return url.replaceAll("(?i)(password=)[^&]*", "$1***");
  }
}
