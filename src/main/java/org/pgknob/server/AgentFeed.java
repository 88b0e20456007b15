package org.pgknob.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.pgknob.Json;

/**
 * The figures of {@code pgknob agent} running on the database host: starts the user's agent command
 * ({@code sh -c}, e.g. {@code ssh db pgknob agent --data-dir ...}) and reads one JSON {@link
 * ProcessSample} per line from its standard output. The command's environment names this JVM
 * ({@link TunerProcess}), so that an agent on this same host counts the tuner's work as pgknob's
 * own rather than as other processes'.
 *
 * <p>An agent that cannot start, prints something that is not a sample, or stops is failed for
 * good: {@link #latest()} is empty from then on, and the failure callback hears once why, so the
 * session can say that the guardrail relies on the prediction alone (or stop, with
 * --require-agent).
 */
public final class AgentFeed implements AutoCloseable {
  /** A sample older than this is not the server's state any more. */
  private static final long FRESH_MILLIS = 3000;

  private static final ObjectMapper MAPPER = Json.mapper(); // ignores fields it does not know

  private final String command;
  private final Process process;
  private final AtomicReference<Received> latest = new AtomicReference<>();
  private final AtomicReference<String> failure = new AtomicReference<>();
  private volatile Consumer<String> onFailure = reason -> {};

  private record Received(ProcessSample sample, long arrivedNanos) {}

  private AgentFeed(String command, Process process) {
    this.command = command;
    this.process = process;
  }

  /** Starts {@code command}; a command that cannot be started is a failed feed, not an error. */
  public static AgentFeed start(String command) {
    Process process = null;
    String problem = null;
    try {
      ProcessBuilder builder =
          new ProcessBuilder("sh", "-c", command)
              .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
              .redirectError(ProcessBuilder.Redirect.DISCARD);
      // An agent on this host counts this JVM as pgknob's own, not as other processes'.
      TunerProcess.current()
          .ifPresent(t -> builder.environment().put(TunerProcess.ENV, t.envValue()));
      process = builder.start();
    } catch (IOException e) {
      problem = "could not be started: " + e.getMessage();
    }
    AgentFeed feed = new AgentFeed(command, process);
    if (problem != null) {
      feed.fail(problem);
    } else {
      Thread reader = new Thread(feed::read, "pgknob-agent-feed");
      reader.setDaemon(true);
      reader.start();
    }
    return feed;
  }

  /** Called once, on the reader's thread, with why the agent failed. */
  public void onFailure(Consumer<String> callback) {
    this.onFailure = callback;
    String already = failure.get();
    if (already != null) {
      callback.accept(already);
    }
  }

  /** The newest sample if it is fresh and the agent is healthy. */
  public Optional<ProcessSample> latest() {
    Received r = latest.get();
    if (failure.get() != null
        || r == null
        || System.nanoTime() - r.arrivedNanos() > TimeUnit.MILLISECONDS.toNanos(FRESH_MILLIS)) {
      return Optional.empty();
    }
    return Optional.of(r.sample());
  }

  /**
   * As {@link #latest()}, but only a sample that arrived after {@code sinceNanos} ({@link
   * System#nanoTime()} on this host, so the two hosts' clocks never meet): a sample from before is
   * of the server as it was then. After a restart that is the old postmaster's figures until the
   * agent's first reading of the new one, an interval after it started: had the configuration
   * before crossed the memory limit, they would stop the next trial at once.
   */
  public Optional<ProcessSample> latestArrivedAfter(long sinceNanos) {
    Received r = latest.get();
    return r == null || r.arrivedNanos() - sinceNanos <= 0 ? Optional.empty() : latest();
  }

  /**
   * Waits up to {@code millis} for the first sample: true when one came, false when the agent
   * failed or said nothing (then {@link #failure()} says why).
   */
  public boolean awaitFirstSample(long millis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (latest.get() == null && failure.get() == null && System.nanoTime() < deadline) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }
    if (latest.get() == null && failure.get() == null) {
      fail("printed no sample within " + millis / 1000 + " s");
    }
    return failure.get() == null;
  }

  /** Why the agent failed, if it did. */
  public Optional<String> failure() {
    return Optional.ofNullable(failure.get());
  }

  public String command() {
    return command;
  }

  @Override
  public void close() {
    failure.compareAndSet(null, "closed");
    stopProcess();
  }

  /**
   * One line of the agent's output. An agent of an older pgknob sends no disk figures, which must
   * read as unknown (-1), not as a full disk (0).
   */
  static ProcessSample parse(String line) throws IOException {
    JsonNode node = MAPPER.readTree(line);
    if (node instanceof ObjectNode o) {
      for (String disk : List.of("diskFreeBytes", "walRoomBytes")) {
        if (!o.has(disk)) {
          o.put(disk, -1L);
        }
      }
    }
    return MAPPER.treeToValue(node, ProcessSample.class);
  }

  private void read() {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        ProcessSample sample;
        try {
          sample = parse(line);
        } catch (IOException | RuntimeException e) {
          fail("printed something that is not a sample: " + shorten(line));
          return;
        }
        if (sample.epochMillis() <= 0 || sample.processes() <= 0) {
          fail("printed a sample without the server's processes: " + shorten(line));
          return;
        }
        latest.set(new Received(sample, System.nanoTime()));
      }
      int status = process.waitFor(5, TimeUnit.SECONDS) ? process.exitValue() : -1;
      fail("stopped (exit status " + status + ")");
    } catch (IOException e) {
      fail("could not be read: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      fail("was interrupted");
    }
  }

  private void fail(String reason) {
    if (failure.compareAndSet(null, reason)) {
      stopProcess();
      onFailure.accept(reason);
    }
  }

  private void stopProcess() {
    if (process != null && process.isAlive()) {
      process.descendants().forEach(ProcessHandle::destroy);
      process.destroy();
    }
  }

  private static String shorten(String line) {
    return line.length() > 80 ? line.substring(0, 80) + "..." : line;
  }
}
