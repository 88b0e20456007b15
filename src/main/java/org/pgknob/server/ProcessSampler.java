package org.pgknob.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Samples the PostgreSQL server's process tree (the postmaster and all its descendants) and the
 * host's memory from /proc, every {@code interval} (one second by default), and tells listeners.
 *
 * <p>Per sample: summed RSS (shared memory counted once per process, as pidstat users see it),
 * summed PSS from {@code smaps_rollup} (shared memory counted once; readable by root or the
 * server's own user: when it is not, {@code pssBytes} is -1 and {@link #pssReadable()} says so),
 * CPU user and system time as percent of one core, storage read and write bytes per second from
 * {@code /proc/<pid>/io}, and MemTotal, MemAvailable and the cgroup limit.
 *
 * <p>Also the host's busy CPU (/proc/stat) and pgknob's own: this JVM, which runs the built-in
 * workloads' driver, and the processes it started, such as a {@code --workload-cmd} benchmark and
 * the children that benchmark reaped. What the rest of the host used is the foreign CPU: host busy
 * minus the server's processes minus pgknob's own. Shared machines run builds and other benchmarks
 * beside a trial, and those take CPU the trial would have had; a benchmark command's own clients
 * are the trial itself. In the agent, pgknob's own also takes in the tuner's process tree when the
 * tuner runs on the same host ({@link #countTunerAsOwn}). With {@link #countOtherClients}, the
 * server's backends of other databases (and their parallel workers) count as foreign too, not as
 * the server's: see {@link ClientsCpu}.
 *
 * <p>CPU is the rise of a tree's total between two samples, each process's time with that of the
 * children it reaped, so a process that lived only between two samples still counts. I/O is deltas
 * per process: a process that exited in between drops out (never a negative delta), one that
 * appeared counts from zero. The first sample has no rates. A window ({@link #startWindow()} ..
 * {@link #stopWindow()}) summarizes the samples taken in it as a {@link ResourceSummary}.
 *
 * <p>Only for a server on this host: for one on another host there is nothing to read, and the
 * trial's figures are {@link ResourceSummary#UNAVAILABLE}.
 */
public final class ProcessSampler implements AutoCloseable {
  /** USER_HZ: the unit of utime and stime in /proc/<pid>/stat, 100 on every Linux platform. */
  public static final int CLOCK_TICKS_PER_SECOND = 100;

  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);
  private static final long WAL_SIZE_EVERY_MILLIS = 10_000;

  private static final Path PROC = Path.of("/proc");

  private static final long SELF_PID = ProcessHandle.current().pid();

  private final long postmasterPid;
  private final Duration interval;
  private final List<Consumer<ProcessSample>> listeners = new CopyOnWriteArrayList<>();

  /**
   * The sampling thread's executor, null when stopped. Not guarded by this object's lock: close
   * takes it without the lock (see {@link #close}).
   */
  private final AtomicReference<ScheduledExecutorService> timer = new AtomicReference<>();

  private Map<Long, Counters> previous = Map.of();
  private long previousNanos;
  private HostCpuTicks previousHost;
  private final RisingTotal serverUserTicks = new RisingTotal();
  private final RisingTotal serverSysTicks = new RisingTotal();
  private final RisingTotal ownCpuTicks = new RisingTotal();
  private volatile boolean pssReadable = true;
  private Window window;
  private final Supplier<Optional<ProcessSample>> source; // null: read /proc here
  private long lastFedMillis;
  private volatile DiskProbe diskProbe; // null: no probe (a server elsewhere)
  private final Optional<ServerDisks> disks; // empty: the server's disks are not visible here
  private volatile boolean readsWalRoom; // the agent's samples only: see readWalRoom
  private long walBytes = -1; // pg_wal's size when last summed, for the samples' WAL room
  private long walBytesReadAtMillis;
  private ClientsCpu clients; // null: the clients' CPU per database is not read
  private String workloadDatabase; // null: every client of the server is the server's work
  private volatile TunerProcess tuner; // null: pgknob's own is this JVM's tree alone

  /** I/O bytes of one process; {@code startTicks} tells a reused pid apart. */
  private record Counters(long startTicks, long read, long write) {}

  public ProcessSampler(long postmasterPid) {
    this(postmasterPid, DEFAULT_INTERVAL);
  }

  public ProcessSampler(long postmasterPid, Duration interval) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("interval must be positive, but got " + interval);
    }
    this.postmasterPid = postmasterPid;
    this.interval = interval;
    this.source = null;
    this.disks = ServerDisks.ofPostmaster(postmasterPid);
  }

  /**
   * A sampler fed by another source of samples: the agent on the database host ({@link AgentFeed}).
   * Each interval it takes the source's newest sample, if any, and hands it to the listeners and
   * the window exactly as a sample read here.
   */
  public ProcessSampler(Supplier<Optional<ProcessSample>> source, Duration interval) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("interval must be positive, but got " + interval);
    }
    this.postmasterPid = -1;
    this.interval = interval;
    this.source = source;
    this.disks = Optional.empty();
  }

  /**
   * Makes every sample carry the WAL disk's room ({@link ProcessSample#walRoomBytes}), as the agent
   * sends it to a tuner elsewhere. Off otherwise: a tuner on the server's host reads the disk
   * itself once, at the session's start, and a trial's samples need not list pg_wal.
   */
  public ProcessSampler readWalRoom() {
    readsWalRoom = true;
    return this;
  }

  /**
   * Makes every sample carry its clients' CPU per database ({@link
   * ProcessSample#clientCpuByDatabase}), as the agent sends it to a tuner elsewhere, which knows
   * the workload's database and the agent does not.
   */
  public synchronized ProcessSampler readClientsByDatabase() {
    if (source == null && clients == null) {
      clients = new ClientsCpu();
    }
    return this;
  }

  /**
   * From the next sample on, counts the CPU of the server's backends of databases other than {@code
   * workloadDatabase} (and of their parallel workers) as foreign, not as the server's: for
   * workloads whose clients all use that one database. A sampler fed by the agent takes the
   * breakdown from the agent's samples (an agent of an older pgknob sends none: nothing moves).
   */
  public synchronized ProcessSampler countOtherClients(String workloadDatabase) {
    readClientsByDatabase();
    this.workloadDatabase = workloadDatabase;
    return this;
  }

  /**
   * The agent's: counts {@code tuner}'s process tree (the JVM that started the agent, and its
   * workload driver) as pgknob's own, as the tuner's own sampler would, instead of as other
   * processes' CPU. Only when the tuner runs on this host: the same boot, and a process of its pid
   * that started at its tick (a reused pid is someone else). Call it before the first sample: the
   * tree's CPU so far would otherwise count as one sample's rise.
   *
   * @return whether the tuner is on this host, and so counted
   */
  public boolean countTunerAsOwn(TunerProcess tuner) {
    boolean here =
        source == null
            && tuner.onThisHost()
            && ProcessTable.startTicks(PROC, tuner.pid()) == tuner.startTicks();
    if (here) {
      this.tuner = tuner;
    }
    return here;
  }

  public long postmasterPid() {
    return postmasterPid;
  }

  public Duration interval() {
    return interval;
  }

  /** False when smaps_rollup could not be read (not root, not the server's user). */
  public boolean pssReadable() {
    return pssReadable;
  }

  /**
   * Probes the disk once a second while a window is open ({@link DiskProbe}); the window's summary
   * then carries the disk's synchronous write rate. Applies from the next window opened.
   */
  public void probeDisk(DiskProbe probe) {
    this.diskProbe = probe;
  }

  public void addListener(Consumer<ProcessSample> listener) {
    listeners.add(listener);
  }

  /** Samples every interval on a daemon thread until {@link #close()}. */
  public synchronized void start() {
    if (timer.get() != null) {
      return;
    }
    ScheduledExecutorService started =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "pgknob-process-sampler");
              t.setDaemon(true);
              return t;
            });
    timer.set(started);
    started.scheduleAtFixedRate(this::sampleQuietly, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Stops the sampling, and waits for a sample being taken to end. It takes neither this object's
   * lock nor waits while holding it: a sample holds the lock while it reads, and a sampler whose
   * samples follow each other without a pause (a slow /proc, a short interval) hands the lock from
   * one sample to the next before a waiting close gets it. Holding it while waiting made every
   * close that met a sample wait its full 5 s; waiting for it let the suite's close take 4.1 s at
   * 2026-12-07 18:40 UTC under a load of 1.7 (ProcessSamplerTest).
   */
  @Override
  public void close() {
    ScheduledExecutorService stopping = timer.getAndSet(null);
    if (stopping != null) {
      stopping.shutdownNow();
      try {
        stopping.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private synchronized Window currentWindow() {
    return window;
  }

  /** Begins a summary window: samples from now on count. */
  public synchronized void startWindow() {
    window = new Window(diskProbe);
  }

  /** Ends the window and summarizes it ({@link ResourceSummary#UNAVAILABLE} without samples). */
  public synchronized ResourceSummary stopWindow() {
    Window w = window;
    window = null;
    return w == null ? ResourceSummary.UNAVAILABLE : w.summary();
  }

  /**
   * Takes one sample now, tells the listeners and adds it to the open window; null when a sampler
   * fed by the agent has nothing new.
   */
  public ProcessSample sampleNow() {
    ProcessSample sample;
    synchronized (this) {
      if (source != null) {
        Optional<ProcessSample> fed = source.get();
        if (fed.isEmpty() || fed.get().epochMillis() <= lastFedMillis) {
          return null; // nothing new from the agent: no sample rather than a stale one
        }
        lastFedMillis = fed.get().epochMillis();
        sample = fed.get();
      } else {
        sample = read();
      }
      if (workloadDatabase != null) {
        sample = sample.otherDatabasesAsForeign(workloadDatabase);
      }
      if (window != null) {
        window.add(sample);
      }
    }
    for (Consumer<ProcessSample> l : listeners) {
      l.accept(sample);
    }
    return sample;
  }

  private void sampleQuietly() {
    try {
      sampleNow();
      Window probed = currentWindow();
      if (probed != null && probed.probe != null) {
        OptionalDouble rate = probed.probe.writesPerSecond();
        synchronized (this) {
          // Only into the window the burst began in: a burst outlasting its window (stopped, and
          // perhaps another opened without a probe) belongs to none.
          if (window == probed && rate.isPresent()) {
            window.addDiskRate(rate.getAsDouble());
          }
        }
      }
    } catch (RuntimeException e) {
      // A failing listener or an unreadable file must not end the sampling of a trial.
    }
  }

  private ProcessSample read() {
    long nanos = System.nanoTime();
    long now = System.currentTimeMillis();
    HostCpuTicks host = HostCpuTicks.read();
    ProcessTable table = ProcessTable.read(PROC);
    List<Long> pids = table.tree(postmasterPid);
    // CPU from the trees' totals, not from the processes alive at both readings: a backend of a
    // connection per transaction, or a benchmark command's run, starts and ends between two
    // readings, and its time is then only in its parent's figure for reaped children.
    // pgknob's tree leaves out the server's, should the server be one of pgknob's descendants.
    Set<Long> ownPids = new LinkedHashSet<>(table.tree(SELF_PID));
    TunerProcess t = tuner;
    if (t != null && table.startTicks(t.pid()) == t.startTicks()) {
      ownPids.addAll(table.tree(t.pid())); // the agent's own tree may be part of it: once each
    }
    ownPids.removeAll(new HashSet<>(pids));
    ProcessTable.CpuTicks serverTicks = table.cpuTicks(pids);
    long userTicks = serverUserTicks.rise(pids.isEmpty() ? -1 : serverTicks.user());
    long sysTicks = serverSysTicks.rise(pids.isEmpty() ? -1 : serverTicks.sys());
    long ownRise = ownCpuTicks.rise(ownPids.isEmpty() ? -1 : table.cpuTicks(ownPids).total());
    Map<String, ProcessTable.CpuTicks> clientTicks =
        clients == null ? Map.of() : clients.rise(table, pids, PROC);
    Map<Long, Counters> current = new HashMap<>();
    long rss = 0;
    long pss = 0;
    boolean pssSeen = true;
    long readBytes = 0;
    long writeBytes = 0;
    for (long pid : pids) {
      Path dir = PROC.resolve(Long.toString(pid));
      if (!Files.isDirectory(dir)) {
        continue; // exited since the scan
      }
      Counters c = counters(dir, table.startTicks(pid));
      long[] memory = memory(dir);
      rss += memory[0];
      if (memory[1] < 0) {
        pssSeen = false;
      } else {
        pss += memory[1];
      }
      current.put(pid, c);
      Counters before = previous.get(pid);
      if (before != null && before.startTicks != c.startTicks) {
        before = null; // the pid was reused by a new process
      }
      readBytes += Math.max(0, c.read - (before == null ? 0 : before.read));
      writeBytes += Math.max(0, c.write - (before == null ? 0 : before.write));
    }
    boolean first = previous.isEmpty();
    double seconds = (nanos - previousNanos) / 1e9;
    HostCpuTicks hostBefore = previousHost;
    previous = current;
    previousNanos = nanos;
    previousHost = host;
    pssReadable = pssSeen;
    HostMemory memory = HostMemory.read(postmasterPid);
    int hostCores = host == null ? 0 : host.cores();
    int cgroupCpus = HostFacts.cgroupCpuLimit(postmasterPid).orElse(0);
    long diskFree = disks.map(ServerDisks::leastFreeBytes).orElse(-1L);
    long walRoom = readsWalRoom ? disks.map(this::walRoom).orElse(-1L) : -1L;
    if (first || seconds <= 0) {
      return new ProcessSample(
          now,
          current.size(),
          rss,
          pssSeen ? pss : -1,
          0,
          0,
          0,
          0,
          memory.memTotalBytes(),
          memory.memAvailableBytes(),
          memory.cgroupLimitBytes(),
          hostCores,
          0,
          0,
          0,
          cgroupCpus,
          diskFree,
          walRoom,
          Map.of());
    }
    double cpuScale = 100.0 / CLOCK_TICKS_PER_SECOND / seconds;
    double coresPerTick = 1.0 / CLOCK_TICKS_PER_SECOND / seconds;
    double hostBusyCores =
        host == null || hostBefore == null
            ? 0
            : Math.max(0, host.busyTicks() - hostBefore.busyTicks()) * coresPerTick;
    double ownCores = ownRise * coresPerTick;
    double serverCores = (userTicks + sysTicks) * coresPerTick;
    double foreignCores =
        hostBusyCores == 0 ? 0 : Math.max(0, hostBusyCores - serverCores - ownCores);
    Map<String, ProcessSample.ClientCpu> clientCores = new HashMap<>();
    clientTicks.forEach(
        (database, ticks) ->
            clientCores.put(
                database,
                new ProcessSample.ClientCpu(
                    ticks.user() * coresPerTick, ticks.sys() * coresPerTick)));
    return new ProcessSample(
        now,
        current.size(),
        rss,
        pssSeen ? pss : -1,
        userTicks * cpuScale,
        sysTicks * cpuScale,
        readBytes / seconds,
        writeBytes / seconds,
        memory.memTotalBytes(),
        memory.memAvailableBytes(),
        memory.cgroupLimitBytes(),
        hostCores,
        hostBusyCores,
        ownCores,
        foreignCores,
        cgroupCpus,
        diskFree,
        walRoom,
        clientCores);
  }

  /**
   * The WAL disk's free space now plus pg_wal's size. The size is summed again every {@value
   * #WAL_SIZE_EVERY_MILLIS} ms only: with a large max_wal_size pg_wal holds thousands of segment
   * files, too many to list every second on the server's host while a trial measures it.
   */
  private long walRoom(ServerDisks d) {
    long now = System.currentTimeMillis();
    if (walBytes < 0 || now - walBytesReadAtMillis >= WAL_SIZE_EVERY_MILLIS) {
      walBytes = d.walBytes();
      walBytesReadAtMillis = now;
    }
    long free = d.walFreeBytes();
    return free < 0 || walBytes < 0 ? -1 : free + walBytes;
  }

  /** A process's I/O bytes; 0 when /proc/[pid]/io is unreadable (not root, not the owner). */
  private static Counters counters(Path dir, long startTicks) {
    long read = 0;
    long write = 0;
    try {
      for (String line : Files.readAllLines(dir.resolve("io"))) {
        if (line.startsWith("read_bytes:")) {
          read = Long.parseLong(line.substring(11).trim());
        } else if (line.startsWith("write_bytes:")) {
          write = Long.parseLong(line.substring(12).trim());
        }
      }
    } catch (IOException | NumberFormatException e) {
      // unreadable, or the process exited since the scan: the rates then stay 0
    }
    return new Counters(startTicks, read, write);
  }

  /** {RSS, PSS} in bytes; PSS -1 when smaps_rollup is unreadable (RSS then from status). */
  private static long[] memory(Path dir) {
    try {
      long rss = 0;
      long pss = -1;
      for (String line : Files.readAllLines(dir.resolve("smaps_rollup"))) {
        if (line.startsWith("Rss:")) {
          rss = kb(line);
        } else if (line.startsWith("Pss:")) {
          pss = kb(line);
        }
      }
      // A zombie (a backend that exited, not yet reaped) has an empty smaps_rollup: nothing
      // resident, which must not make the whole tree's PSS unreadable.
      return new long[] {rss, pss < 0 && rss == 0 ? 0 : pss};
    } catch (IOException | RuntimeException e) {
      // fall through to status, which every user may read
    }
    try {
      for (String line : Files.readAllLines(dir.resolve("status"))) {
        if (line.startsWith("VmRSS:")) {
          return new long[] {kb(line), -1};
        }
      }
    } catch (IOException e) {
      // exited while we looked: nothing resident any more
    }
    return new long[] {0, 0};
  }

  private static long kb(String line) {
    return Long.parseLong(line.trim().split("\\s+")[1]) * 1024;
  }

  /** Running sums of one window. */
  private static final class Window {
    /** The probe set when the window opened: a later change applies from the next window. */
    private final DiskProbe probe;

    private int samples;
    private boolean pssMissing;
    private double cpuUser;
    private double cpuSys;
    private double read;
    private double write;
    private double rssSum;
    private double pssSum;
    private long rssPeak;
    private long pssPeak;
    private double foreignSum;
    private double foreignPeak;
    private int hostCores;
    private double diskLogSum;
    private int diskBursts;
    private long diskFreeLeast = -1; // -1: no sample read the disk

    Window(DiskProbe probe) {
      this.probe = probe;
    }

    void addDiskRate(double writesPerSecond) {
      if (writesPerSecond > 0) {
        diskLogSum += Math.log(writesPerSecond);
        diskBursts++;
      }
    }

    void add(ProcessSample s) {
      samples++;
      cpuUser += s.cpuUserPct();
      cpuSys += s.cpuSysPct();
      read += s.readBytesPerSec();
      write += s.writeBytesPerSec();
      rssSum += s.rssBytes();
      rssPeak = Math.max(rssPeak, s.rssBytes());
      pssMissing |= s.pssBytes() < 0;
      pssSum += s.pssBytes();
      pssPeak = Math.max(pssPeak, s.pssBytes());
      foreignSum += s.foreignCpuCores();
      foreignPeak = Math.max(foreignPeak, s.foreignCpuCores());
      hostCores = Math.max(hostCores, s.hostCores());
      if (s.diskFreeBytes() >= 0) {
        diskFreeLeast =
            diskFreeLeast < 0 ? s.diskFreeBytes() : Math.min(diskFreeLeast, s.diskFreeBytes());
      }
    }

    /** Averages and peaks; PSS -1 when any sample lacked it; MB per second in 2^20 bytes. */
    ResourceSummary summary() {
      if (samples == 0) {
        return ResourceSummary.UNAVAILABLE;
      }
      return new ResourceSummary(
          true,
          cpuUser / samples,
          cpuSys / samples,
          Math.round(rssSum / samples),
          rssPeak,
          pssMissing ? -1 : Math.round(pssSum / samples),
          pssMissing ? -1 : pssPeak,
          read / samples / (1 << 20),
          write / samples / (1 << 20),
          samples,
          foreignSum / samples,
          foreignPeak,
          hostCores,
          // geometric mean: the rate acts as a factor on TPS, and one stalled burst is not an
          // average
          diskBursts == 0 ? 0 : Math.exp(diskLogSum / diskBursts),
          diskFreeLeast < 0 ? null : diskFreeLeast);
    }
  }
}
