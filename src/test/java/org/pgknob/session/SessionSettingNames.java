package org.pgknob.session;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.pgknob.space.SearchSpaceFile;

/** Every setting a default session may change on a server of one major: for granting a role. */
public final class SessionSettingNames {
  private SessionSettingNames() {}

  public static List<String> forMajor(int major) {
    Set<String> names = new LinkedHashSet<>(SearchSpaceFile.loadDefault(major).names());
    names.addAll(PgTuneSettings.NAMES);
    return List.copyOf(names);
  }
}
