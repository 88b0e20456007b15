package org.pgknob.server;

import java.util.List;
import org.pgknob.BuildInfo;
import org.pgknob.PgknobException;

/**
 * The PostgreSQL majors pgknob's managed cluster runs (from the zonky binaries artifacts) and the
 * cluster folder of each, so clusters of different majors never share a data folder.
 */
public final class ManagedVersions {
  public static final int DEFAULT_MAJOR = 18;
  public static final List<Integer> MAJORS = List.of(16, 17, 18);

  private ManagedVersions() {}

  /** The artifact version for {@code major}, e.g. 17.6.0. */
  public static String artifactVersion(int major) {
    String version = BuildInfo.postgresBinariesVersion(major);
    if (!MAJORS.contains(major) || version == null || version.startsWith("$")) {
      throw new PgknobException(
          "the managed cluster runs PostgreSQL " + majorsText() + ", not " + major,
          "give --pg-version "
              + majorsText()
              + "; for another major run your own server and give --target");
    }
    return version;
  }

  /** The default cluster's folder name for {@code major}: cluster-17. */
  public static String clusterDirName(int major) {
    return "cluster-" + major;
  }

  /** "16, 17 or 18". */
  public static String majorsText() {
    return MAJORS.get(0) + ", " + MAJORS.get(1) + " or " + MAJORS.get(2);
  }
}
