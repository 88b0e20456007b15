package org.pgknob.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;

/**
 * What happened to a session that did not finish, for the top of its report: stopped by a signal,
 * failed (and why), or still running; when, after how many of its planned trials, and what to do
 * next. session.json says it (the lifecycle code writes its status before anything else); older
 * folders carry a "state" there or in summary.json instead.
 */
final class SessionEnd {
  private static final DateTimeFormatter WHEN =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'", Locale.ROOT).withZone(ZoneOffset.UTC);

  private SessionEnd() {}

  static Optional<String> notice(SessionData data) {
    JsonNode session = data.session();
    String status = data.status();
    if (status.isEmpty() || status.equals("finished")) {
      return Optional.empty();
    }
    JsonNode progress = session.path("progress");
    int done = data.trials().size();
    int planned = progress.path("trialsPlanned").asInt(0);
    String trials =
        planned > 0
            ? Num.f("%d of %d planned trials", done, planned)
            : Num.f("%d trial%s", done, done == 1 ? "" : "s");
    String message = progress.path("message").asText("");
    String when = when(text(session, "updatedAt"));
    String dir = data.runDir().toString();
    return Optional.of(
        switch (status) {
          case "stopped" ->
              (message.startsWith("stopped ")
                      ? "The session was " + message
                      : "The session was stopped" + (message.isEmpty() ? "" : " (" + message + ")"))
                  + when
                  + " after "
                  + trials
                  + "; pgknob put the server's original settings back. This report shows the"
                  + " trials finished before the stop; nothing was validated after it. Continue"
                  + " with: pgknob resume "
                  + dir;
          case "failed" ->
              "The session failed"
                  + when
                  + " after "
                  + trials
                  + (message.isEmpty() ? "" : ": " + message)
                  + ". pgknob put the server's original settings back on its way out (had that"
                  + " failed too, it said so and `pgknob restore` does it). This report shows the"
                  + " trials finished before the failure.";
          case "running" ->
              "The session is still running ("
                  + trials
                  + " so far): this report shows them; `pgknob report "
                  + dir
                  + "` draws a later one.";
          default ->
              "The session's state is \""
                  + status
                  + "\": this report shows the "
                  + trials
                  + " finished so far.";
        });
  }

  private static String text(JsonNode node, String field) {
    return node.path(field).isTextual() ? node.path(field).asText() : "";
  }

  /** " on 2026-12-01 06:26 UTC", or empty when the time is not recorded. */
  private static String when(String instant) {
    if (instant.isEmpty()) {
      return "";
    }
    try {
      return " on " + WHEN.format(Instant.parse(instant));
    } catch (DateTimeParseException e) {
      return "";
    }
  }
}
