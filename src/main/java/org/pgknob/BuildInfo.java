package org.pgknob;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** Facts fixed at build time: pgknob's version and the PostgreSQL binaries it bundles. */
public final class BuildInfo {
  private static final Properties PROPS = load();

  private BuildInfo() {}

  public static String version() {
    return PROPS.getProperty("version", "unknown");
  }

  /** Version of the io.zonky.test.postgres binaries artifact, e.g. 18.6.0. */
  public static String postgresBinariesVersion() {
    return PROPS.getProperty("postgres.binaries.version", "unknown");
  }

  /**
   * Version of the binaries artifact for a PostgreSQL major the managed cluster can run (16, 17,
   * 18), or null for any other major.
   */
  public static String postgresBinariesVersion(int major) {
    return PROPS.getProperty("postgres.binaries." + major);
  }

  private static Properties load() {
    Properties props = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream("/pgknob-build.properties")) {
      if (in != null) {
        props.load(in);
      }
    } catch (IOException e) {
      // leave empty: version() says "unknown"
    }
    return props;
  }
}
