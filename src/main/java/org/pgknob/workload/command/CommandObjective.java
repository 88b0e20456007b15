package org.pgknob.workload.command;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.pgknob.Json;
import org.pgknob.PgknobException;

/**
 * Runs an external command as an objective: {@code sh -c COMMAND} with the configuration on
 * standard input as one JSON object (knob name to value, in the knob's own type and unit), and
 * reads one JSON object from standard output: {@code {"value": 123.4}} or {@code {"status":
 * "failed", "reason": "..."}}. Other finite numeric fields become further metrics; {@code
 * "per_second"}, a list of numbers, is the value of each second of the command's measured window.
 *
 * <p>A non-zero exit, output that is not a JSON object, a missing, NaN or infinite value, or an
 * overrun of the timeout is a failed trial (never an exception) with the reason and the tail of
 * standard error. Only a command the shell cannot find or run (exit 127 or 126) is an error: every
 * trial would fail the same way.
 */
public final class CommandObjective {
  /** Characters of standard error kept in a failure's reason. */
  static final int STDERR_TAIL_CHARS = 400;

  // NaN and Infinity are read so they can be refused with a clear reason; a key given twice is
  // refused, since which of the two values counts would otherwise be a guess.
  private static final ObjectReader LENIENT =
      Json.mapper()
          .reader()
          .with(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .with(StreamReadFeature.STRICT_DUPLICATE_DETECTION);

  private final String command;
  private final String metric;
  private final Duration timeout;
  private final Map<String, String> environment;
  private final Set<String> unset;

  /**
   * @param command the shell command line
   * @param metric the name under which the output's {@code value} is reported
   * @param timeout how long a run may take; {@link Duration#ZERO} for no limit
   */
  public CommandObjective(String command, String metric, Duration timeout) {
    this(command, metric, timeout, Map.of());
  }

  /**
   * @param environment variables added to the command's environment (e.g. where the server is)
   */
  public CommandObjective(
      String command, String metric, Duration timeout, Map<String, String> environment) {
    this(command, metric, timeout, environment, Set.of());
  }

  /**
   * @param environment variables added to the command's environment (e.g. where the server is)
   * @param unset variables of pgknob's own environment the command must not inherit (a password)
   */
  public CommandObjective(
      String command,
      String metric,
      Duration timeout,
      Map<String, String> environment,
      Set<String> unset) {
    this.command = command;
    this.metric = metric;
    this.timeout = timeout;
    this.environment = Map.copyOf(environment);
    this.unset = Set.copyOf(unset);
  }

  /** Runs the command once on {@code config} (knob name to value). */
  public CommandOutcome run(Map<String, Object> config) {
    Process process;
    try {
      ProcessBuilder builder = new ProcessBuilder("sh", "-c", command);
      builder.environment().keySet().removeAll(unset);
      builder.environment().putAll(environment);
      process = builder.start();
    } catch (IOException e) {
      throw new PgknobException(
          "cannot start sh to run the objective command: " + e.getMessage(),
          "check that /bin/sh exists");
    }
    CompletableFuture<byte[]> stdout = drain(process.getInputStream());
    CompletableFuture<byte[]> stderr = drain(process.getErrorStream());
    try (OutputStream in = process.getOutputStream()) {
      in.write(Json.mapper().writeValueAsBytes(config));
      in.write('\n');
    } catch (IOException e) {
      // the command may exit without reading its input; its exit status tells the rest
    }
    int exit;
    try {
      if (timeout.isZero()) {
        exit = process.waitFor();
      } else if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        exit = process.exitValue();
      } else {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        return CommandOutcome.overran("the command ran longer than " + timeout.toSeconds() + " s");
      }
    } catch (InterruptedException e) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      Thread.currentThread().interrupt();
      throw new PgknobException("interrupted while the objective command ran", "");
    }
    String out = new String(stdout.join(), StandardCharsets.UTF_8).trim();
    String err = tail(new String(stderr.join(), StandardCharsets.UTF_8).trim());
    if (exit == 127 || exit == 126) {
      throw new PgknobException(
          "the objective command cannot run (exit "
              + exit
              + (exit == 127 ? ", command not found" : ", not executable")
              + ")"
              + (err.isEmpty() ? "" : ": " + err),
          "check --objective-cmd: it runs as sh -c '" + command + "'");
    }
    if (exit != 0) {
      return failed("the command exited with status " + exit, err);
    }
    return parse(out, err);
  }

  private CommandOutcome parse(String out, String err) {
    JsonNode node = readObject(out);
    if (node == null && duplicateKey(out) != null) {
      return failed("the command's output gives " + duplicateKey(out) + " twice", err);
    }
    if (node == null) {
      return failed(
          "the command's output is not a JSON object: "
              + (out.isEmpty() ? "(nothing)" : "'" + shorten(out) + "'"),
          err);
    }
    if ("failed".equals(node.path("status").asText())) {
      return CommandOutcome.failed(node.path("reason").asText("the command said failed"));
    }
    JsonNode value = node.get("value");
    if (value == null || !value.isNumber()) {
      return failed("the command's output has no numeric \"value\": '" + shorten(out) + "'", err);
    }
    double v = value.asDouble();
    if (!Double.isFinite(v)) {
      return failed("the command's value is " + v + ", not a finite number", err);
    }
    Map<String, Double> metrics = new LinkedHashMap<>();
    metrics.put(metric, v);
    node.properties()
        .forEach(
            e -> {
              if (!e.getKey().equals("value")
                  && e.getValue().isNumber()
                  && Double.isFinite(e.getValue().asDouble())) {
                metrics.putIfAbsent(e.getKey(), e.getValue().asDouble());
              }
            });
    JsonNode seconds = node.get("per_second");
    List<Double> perSecond = new ArrayList<>();
    if (seconds != null) {
      if (!seconds.isArray()) {
        return failed("the command's \"per_second\" is not a list of numbers", err);
      }
      for (JsonNode second : seconds) {
        if (!second.isNumber() || !Double.isFinite(second.asDouble()) || second.asDouble() < 0) {
          return failed(
              "the command's \"per_second\" holds " + second + ", not a finite number >= 0", err);
        }
        perSecond.add(second.asDouble());
      }
    }
    return CommandOutcome.succeeded(metrics, perSecond);
  }

  /** The whole output as a JSON object, else its last line (for scripts that log first). */
  private static JsonNode readObject(String out) {
    if (out.isEmpty()) {
      return null;
    }
    for (String candidate : new String[] {out, out.substring(out.lastIndexOf('\n') + 1)}) {
      try {
        JsonNode node = LENIENT.readTree(candidate);
        if (node != null && node.isObject()) {
          return node;
        }
      } catch (JsonProcessingException e) {
        // try the next reading
      }
    }
    return null;
  }

  /** The key the output's last line gives twice ("'value'"), or null. */
  private static String duplicateKey(String out) {
    try {
      LENIENT.readTree(out.substring(out.lastIndexOf('\n') + 1));
    } catch (JsonProcessingException e) {
      String m = String.valueOf(e.getOriginalMessage());
      if (m.startsWith("Duplicate field ")) {
        return m.substring("Duplicate field ".length());
      }
    }
    return null;
  }

  private static CommandOutcome failed(String reason, String stderrTail) {
    return CommandOutcome.failed(
        stderrTail.isEmpty() ? reason : reason + "; stderr: " + stderrTail);
  }

  private static String tail(String s) {
    return s.length() <= STDERR_TAIL_CHARS
        ? s
        : "..." + s.substring(s.length() - STDERR_TAIL_CHARS);
  }

  private static String shorten(String s) {
    String one = s.replace('\n', ' ');
    return one.length() <= 200 ? one : one.substring(0, 200) + "...";
  }

  /** Reads a stream to its end on its own thread, so a full stderr pipe never blocks stdout. */
  private static CompletableFuture<byte[]> drain(InputStream stream) {
    CompletableFuture<byte[]> result = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              try (InputStream s = stream) {
                ByteArrayOutputStream buffer = new ByteArrayOutputStream();
                s.transferTo(buffer);
                result.complete(buffer.toByteArray());
              } catch (IOException e) {
                result.complete(new byte[0]);
              }
            },
            "objective-command-output");
    reader.setDaemon(true);
    reader.start();
    return result;
  }
}
