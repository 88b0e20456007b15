package org.pgknob.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import org.pgknob.Json;
import org.pgknob.PgknobException;
import org.pgknob.server.ProcessSample;
import org.pgknob.server.ProcessSampler;
import org.pgknob.server.TunerProcess;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code pgknob agent}: run on the database host, prints the postgres process tree's figures as one
 * JSON line per interval, for a tuner elsewhere to guard memory with ({@code --agent-command}).
 */
@Command(
    name = "agent",
    mixinStandardHelpOptions = true,
    description = {
      "Run on the database host: print the server's process tree figures once a second.",
      "Summed RSS, PSS, CPU (and its clients' per database), disk I/O, MemAvailable, cgroup memory"
          + " limit and CPU quota, as one"
          + " JSON line on standard output.",
      "The tuner starts it with --agent-command, e.g. 'ssh db pgknob agent --data-dir DIR'."
    })
public final class AgentCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--data-dir",
      required = true,
      paramLabel = "DIR",
      description = "The server's data folder (its postmaster.pid names the process tree).")
  Path dataDir;

  @Option(
      names = "--interval",
      paramLabel = "DURATION",
      defaultValue = "1s",
      converter = DurationSeconds.class,
      description = "Time between samples (default: ${DEFAULT-VALUE}).")
  int intervalSeconds;

  @Option(
      names = "--count",
      paramLabel = "N",
      defaultValue = "0",
      description = "Stop after N samples (default: run until stopped).")
  long count;

  @Override
  public Integer call() throws InterruptedException {
    if (!Files.isDirectory(dataDir)) {
      throw new PgknobException(
          "the data folder " + dataDir + " does not exist on this host",
          "give the server's data_directory with --data-dir");
    }
    // A folder that is not a data folder would have the agent wait for a server forever.
    if (!Files.isRegularFile(dataDir.resolve("PG_VERSION"))) {
      throw new PgknobException(
          dataDir + " is not a PostgreSQL data folder (it has no PG_VERSION)",
          "give the server's data_directory (SHOW data_directory) with --data-dir");
    }
    if (count < 0 || intervalSeconds < 0) {
      throw new PgknobException(
          "--count and --interval must not be negative, but got "
              + count
              + " and "
              + intervalSeconds,
          "give --count 0 to run until stopped, and --interval 1s or more");
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Duration interval = Duration.ofSeconds(Math.max(1, intervalSeconds));
    ProcessSampler sampler = null;
    boolean saidDown = false;
    // The tuner that started this agent, should it run on this host too: see TunerProcess.
    Optional<TunerProcess> tuner = TunerProcess.parse(System.getenv(TunerProcess.ENV));
    boolean saidTuner = false;
    long next = System.nanoTime();
    for (long n = 0; count == 0 || n < count; ) {
      OptionalLong pid = postmasterPid();
      if (pid.isEmpty()) {
        if (!saidDown) {
          err.println("pgknob agent: no server runs in " + dataDir + " (waiting for it)");
          err.flush();
          saidDown = true;
        }
        sampler = null;
      } else {
        saidDown = false;
        // A restart brings a new postmaster: follow it.
        if (sampler == null || sampler.postmasterPid() != pid.getAsLong()) {
          sampler =
              new ProcessSampler(pid.getAsLong(), interval).readWalRoom().readClientsByDatabase();
          if (tuner.isPresent() && sampler.countTunerAsOwn(tuner.get()) && !saidTuner) {
            err.println(
                "pgknob agent: the tuner (pid "
                    + tuner.get().pid()
                    + ") runs on this host: its CPU counts as pgknob's own, not as other"
                    + " processes'");
            err.flush();
            saidTuner = true;
          }
          sampler.sampleNow(); // the first sample has no rates yet
          Thread.sleep(interval.toMillis());
          next = System.nanoTime();
        }
        ProcessSample sample = sampler.sampleNow();
        if (sample.processes() > 0) {
          out.println(json(sample));
          out.flush();
          if (out.checkError()) {
            return ExitCodes.OK; // the tuner is gone (its end of the pipe closed): so is the need
          }
          n++;
        }
      }
      // One line per interval, however long a sample took to read.
      next += interval.toNanos();
      Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
    }
    return ExitCodes.OK;
  }

  private static String json(ProcessSample sample) {
    try {
      return Json.mapper().writeValueAsString(sample);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private OptionalLong postmasterPid() {
    try {
      List<String> lines = Files.readAllLines(dataDir.resolve("postmaster.pid"));
      long pid = Long.parseLong(lines.get(0).trim());
      return ProcessHandle.of(pid).isPresent() ? OptionalLong.of(pid) : OptionalLong.empty();
    } catch (java.io.IOException | RuntimeException e) {
      return OptionalLong.empty();
    }
  }
}
