package org.pgknob.report;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.pgknob.runs.Summary;

/**
 * The words people read for values the session files keep raw: times to the minute in UTC, the
 * workload as a sentence, the budget without impossible figures. One place, so the console, the
 * report and the exports say the same thing.
 */
public final class Labels {
  private static final DateTimeFormatter MINUTE =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT).withZone(ZoneOffset.UTC);
  private static final long MB_PER_WAREHOUSE = 100; // what a TPROC-C build takes per warehouse

  private Labels() {}

  /** "2026-12-01 06:26 UTC"; empty for null. */
  public static String time(Instant at) {
    return at == null ? "" : MINUTE.format(at);
  }

  /** "2026-12-01 06:26 UTC" from an ISO-8601 instant; other text is returned as it is. */
  public static String time(String isoInstant) {
    try {
      return time(Instant.parse(isoInstant));
    } catch (RuntimeException e) {
      return isoInstant == null ? "" : isoInstant;
    }
  }

  /**
   * The workload in words: "TPROC-C, 2 warehouses (about 200 MB), 4 users, 5 s ramp-up, 15 s
   * windows", or "your command: sh bench.sh". Keys it does not know are appended as key=value.
   */
  public static String workload(Map<String, ?> w) {
    if (w == null || w.isEmpty()) {
      return "";
    }
    Object name = w.get("name");
    if ("command".equals(name)) {
      return "your command: " + w.get("command");
    }
    List<String> parts = new ArrayList<>();
    parts.add("tprocc".equals(name) ? "TPROC-C" : String.valueOf(name));
    Object warehouses = w.get("warehouses");
    if (warehouses instanceof Number n) {
      long count = n.longValue();
      parts.add(
          count
              + (count == 1 ? " warehouse" : " warehouses")
              + " (about "
              + size(count * MB_PER_WAREHOUSE)
              + ")");
    }
    Object users = w.containsKey("vus") ? w.get("vus") : w.get("virtualUsers");
    if (users instanceof Number n) {
      parts.add(n.intValue() + (n.intValue() == 1 ? " user" : " users"));
    }
    if (w.get("rampupSeconds") instanceof Number n) {
      parts.add(n.intValue() + " s ramp-up");
    }
    if (w.get("windowSeconds") instanceof Number n) {
      parts.add(n.intValue() + " s windows");
    }
    if (Boolean.TRUE.equals(w.get("allWarehouses"))) {
      parts.add("all warehouses per user");
    }
    for (Map.Entry<String, ?> e : w.entrySet()) {
      if (!List.of(
              "name",
              "warehouses",
              "vus",
              "virtualUsers",
              "rampupSeconds",
              "windowSeconds",
              "allWarehouses")
          .contains(e.getKey())) {
        parts.add(e.getKey() + "=" + e.getValue());
      }
    }
    return String.join(", ", parts);
  }

  /**
   * "10 of 10 trials, 2 minutes" when the budget was trials only; "8 of 25 trials, 31 of 40
   * minutes" when it had a time.
   */
  public static String budget(Summary.Budget b) {
    String trials = String.format(Locale.ROOT, "%d of %d trials", b.trialsRun(), b.trialsPlanned());
    double usedMinutes = b.secondsUsed() / 60;
    if (b.secondsPlanned() <= 0) {
      return trials + ", " + minutes(usedMinutes) + " used";
    }
    return String.format(
        Locale.ROOT, "%s, %.0f of %s", trials, usedMinutes, minutes(b.secondsPlanned() / 60));
  }

  /**
   * What the end of a session did to the server: "original settings restored (2 settings changed
   * back)", or "original settings kept: ..." when none differed at the end.
   */
  public static String restored(int changedBack) {
    if (changedBack == 0) {
      return "original settings kept: the server ran with them at the end";
    }
    return "original settings restored ("
        + changedBack
        + (changedBack == 1 ? " setting" : " settings")
        + " changed back)";
  }

  private static String minutes(double m) {
    long rounded = Math.round(m);
    return rounded + (rounded == 1 ? " minute" : " minutes");
  }

  private static String size(long mb) {
    return mb >= 1024 && mb % 1024 == 0
        ? mb / 1024 + " GB"
        : mb >= 1000 ? String.format(Locale.ROOT, "%.1f GB", mb / 1024.0) : mb + " MB";
  }
}
