package org.pgknob.cli;

import java.net.URI;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.pgknob.PgknobException;
import org.pgknob.target.ManagedCluster;
import org.pgknob.target.Target;
import picocli.CommandLine.Option;

/**
 * Which server the tprocc commands talk to: pgknob's managed cluster (default), or an existing
 * server by JDBC URL with the password from PGPASSWORD. Kept in one place so a shared target option
 * set can replace it.
 */
public final class TproccConnectionOptions {
  @Option(
      names = "--port",
      description = "Port of the managed cluster (default: a free one).",
      defaultValue = "0")
  int port;

  @Option(
      names = "--target",
      paramLabel = "URL",
      description =
          "An existing server, e.g. jdbc:postgresql://db:5432/postgres?user=me"
              + " (password from PGPASSWORD; user from the URL, PGUSER or postgres).")
  String targetUrl;

  /** The server, started first when it is the managed cluster. */
  public Target open() {
    if (targetUrl == null) {
      ManagedCluster cluster = ManagedCluster.openDefault(port);
      cluster.start();
      return cluster;
    }
    return UrlTarget.parse(targetUrl, System.getenv("PGUSER"), System.getenv("PGPASSWORD"));
  }

  /** An existing server reached by a JDBC URL; the URL's database is replaced per connection. */
  static final class UrlTarget implements Target {
    private final String prefix;
    private final String query;
    private final String user;
    private final String password;

    private UrlTarget(String prefix, String query, String user, String password) {
      this.prefix = prefix;
      this.query = query;
      this.user = user;
      this.password = password;
    }

    static UrlTarget parse(String url, String envUser, String envPassword) {
      if (!url.startsWith("jdbc:postgresql://")) {
        throw new PgknobException(
            "--target must be a PostgreSQL JDBC URL, got " + url,
            "write it as jdbc:postgresql://host:5432/postgres");
      }
      URI uri = URI.create(url.substring("jdbc:".length()));
      if (uri.getHost() == null) {
        throw new PgknobException(
            "--target has no host: " + url, "write it as jdbc:postgresql://host:5432/postgres");
      }
      String query = uri.getRawQuery() == null ? "" : uri.getRawQuery();
      String user = envUser == null || envUser.isBlank() ? "postgres" : envUser;
      StringBuilder rest = new StringBuilder();
      for (String pair : query.split("&")) {
        if (pair.startsWith("user=")) {
          user = pair.substring("user=".length());
        } else if (pair.startsWith("password=")) {
          throw new PgknobException(
              "--target must not carry a password: it would end up in shell history and logs",
              "set PGPASSWORD instead");
        } else if (!pair.isEmpty()) {
          rest.append(rest.length() == 0 ? "?" : "&").append(pair);
        }
      }
      String port = uri.getPort() < 0 ? "" : ":" + uri.getPort();
      return new UrlTarget(
          "jdbc:postgresql://" + uri.getHost() + port + "/", rest.toString(), user, envPassword);
    }

    @Override
    public String describe() {
      return prefix + " as " + user;
    }

    @Override
    public String jdbcUrl(String database) {
      return prefix + database + query;
    }

    @Override
    public Properties credentials() {
      Properties props = new Properties();
      props.setProperty("user", user);
      if (password != null) {
        props.setProperty("password", password);
      }
      return props;
    }

    @Override
    public Connection connect(String database) throws SQLException {
      return DriverManager.getConnection(jdbcUrl(database), credentials());
    }
  }
}
