package org.pgknob.session;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.pgknob.PgknobException;
import org.pgknob.runs.Summary;
import org.pgknob.runs.Track;
import org.pgknob.safety.RamLimit;
import org.pgknob.safety.SafetyContext;
import org.pgknob.safety.SafetyRules;
import org.pgknob.safety.WalRoom;
import org.pgknob.server.DiskReading;
import org.pgknob.server.HostMemory;
import org.pgknob.server.PrimaryHazards;
import org.pgknob.server.ServerFacts;
import org.pgknob.server.Target;
import org.pgknob.space.BoundSpace;
import org.pgknob.space.PgSetting;
import org.pgknob.space.PgUnit;
import org.pgknob.space.SearchSpace;
import org.pgknob.space.SearchSpaceFile;
import org.pgknob.space.ServerSpaceValidator;
import org.pgknob.workload.Workload;

/**
 * What a session knows about its server and workload once set up: the bound search space, the
 * safety rules and their context, the workload.
 */
final class SessionContext {
  private final Target target;
  private final ServerFacts facts;
  private final BoundSpace bound;
  private final SearchSpace space;
  private final SafetyRules rules;
  private final Map<String, PgSetting> serverSettings;
  private final RamLimit ram;
  private WalRoom walRoom; // read again once the workload's database is built
  private final Workload workload;
  private final String workloadDatabase;
  private final SessionInputs inputs;
  private long perConnectionBytes;
  private Map<String, String> pgTune;

  private SessionContext(
      Target target,
      ServerFacts facts,
      BoundSpace bound,
      SearchSpace space,
      SafetyRules rules,
      Map<String, PgSetting> serverSettings,
      RamLimit ram,
      WalRoom walRoom,
      Workload workload,
      String workloadDatabase,
      SessionInputs inputs) {
    this.target = target;
    this.facts = facts;
    this.bound = bound;
    this.space = space;
    this.rules = rules;
    this.serverSettings = serverSettings;
    this.ram = ram;
    this.walRoom = walRoom;
    this.workload = workload;
    this.workloadDatabase = workloadDatabase;
    this.inputs = inputs;
    this.perConnectionBytes = rules.perConnectionFallbackBytes();
  }

  static SessionContext open(SessionInputs inputs, Target target) {
    ServerFacts facts = target.facts();
    try (Connection conn = target.connect("postgres")) {
      Map<String, PgSetting> settings = PgSetting.readAll(conn);
      PrimaryHazards.refuse(conn);
      SearchSpace file =
          inputs.spaceFile() == null
              ? SearchSpaceFile.loadDefault(facts.majorVersion())
              : SearchSpaceFile.load(Path.of(inputs.spaceFile()), facts.majorVersion());
      BoundSpace bound = ServerSpaceValidator.bind(file, settings, facts.majorVersion());
      SafetyRules rules = SessionRules.of(inputs);
      rules.validateAgainst(settings);
      SearchSpace space = rules.restrictSpace(bound.space(), inputs.allowDurabilityTradeoff());
      RamLimit ram = ramLimit(inputs, facts);
      WalRoom walRoom = walRoom(target, facts, rules, settings);
      Workload workload = inputs.workload().create(inputs.rampupSeconds(), inputs.windowSeconds());
      String database = inputs.workload().database();
      return new SessionContext(
          target, facts, bound, space, rules, settings, ram, walRoom, workload, database, inputs);
    } catch (SQLException e) {
      throw new PgknobException(
          "cannot read the settings of " + target.describe() + ": " + e.getMessage(),
          "check that the server is up and the role may read pg_settings",
          e);
    }
  }

  /**
   * The RAM the server may use: the least of its host's, its cgroup limit's and --ram's.
   *
   * @throws PgknobException for a server on another host without an agent and without --ram
   */
  static RamLimit ramLimit(SessionInputs inputs, ServerFacts facts) {
    OptionalLong userRam =
        inputs.ramBytes() > 0 ? OptionalLong.of(inputs.ramBytes()) : OptionalLong.empty();
    if (facts.local()) {
      return RamLimit.of(
          facts.postmasterPid().isPresent()
              ? HostMemory.read(facts.postmasterPid().getAsLong())
              : HostMemory.read(),
          userRam);
    }
    if (facts.hostMemoryBytes().isPresent()) {
      // a server elsewhere whose agent read its host's RAM and cgroup limit there
      return RamLimit.of(
          new HostMemory(
              facts.hostMemoryBytes().getAsLong(), 0, facts.cgroupMemoryLimitBytes().orElse(0)),
          userRam);
    }
    return RamLimit.forRemoteServer(userRam);
  }

  /**
   * The same context for inputs whose window changed (--duration auto): a workload that measures
   * the new window, everything else as it was read at the start.
   */
  SessionContext withInputs(SessionInputs changed) {
    SessionContext c =
        new SessionContext(
            target,
            facts,
            bound,
            space,
            rules,
            serverSettings,
            ram,
            walRoom,
            changed.workload().create(changed.rampupSeconds(), changed.windowSeconds()),
            workloadDatabase,
            changed);
    c.perConnectionBytes = perConnectionBytes;
    return c;
  }

  /**
   * The room the WAL may grow into on a server whose disks this host or its agent reads: the WAL
   * disk's free space plus the WAL already there; unknown for a server nothing reads the disks of.
   *
   * @throws PgknobException when the server's data or WAL disk has less free space than the rules'
   *     reserve, or its WAL disk has no room for the WAL the server keeps as configured and the
   *     reserve: every trial would stop at once
   */
  private static WalRoom walRoom(
      Target target, ServerFacts facts, SafetyRules rules, Map<String, PgSetting> settings) {
    Optional<DiskReading> disks = target.disks(facts);
    if (disks.isEmpty()) {
      return WalRoom.UNKNOWN;
    }
    DiskReading d = disks.get();
    long least = d.leastFreeBytes();
    if (least >= 0 && least < rules.diskReserveBytes()) {
      throw new PgknobException(
          "the server's disk has "
              + PgUnit.readableBytes(least)
              + " free ("
              + d.where()
              + "), under the reserve of "
              + PgUnit.readableBytes(rules.diskReserveBytes())
              + " that the disk guardrail keeps in every trial",
          "free space on that disk, or lower disk.reserve in a rules file given with"
              + " --rules; nothing was changed");
    }
    WalRoom room = WalRoom.of(d);
    if (!room.known()) {
      return room;
    }
    long kept = rules.walKeptBytes(settings);
    if (room.bytes() - rules.diskReserveBytes() < kept) {
      throw new PgknobException(
          "the server's WAL disk has "
              + PgUnit.readableBytes(room.bytes())
              + " of free space and WAL ("
              + d.where()
              + "), less than the WAL the server keeps as it is configured ("
              + PgUnit.readableBytes(kept)
              + ", max_wal_size + wal_keep_size) and the reserve of "
              + PgUnit.readableBytes(rules.diskReserveBytes())
              + " that the disk guardrail keeps in every trial",
          "free space on that disk, lower max_wal_size, or lower disk.reserve in a rules file"
              + " given with --rules; nothing was changed");
    }
    return room;
  }

  /**
   * Reads the WAL disk's room again, once the workload's database takes its share of the disk.
   *
   * @throws PgknobException as {@link #open} when the disk no longer has room for the server's WAL
   *     and the reserve
   */
  void measureWalRoom() {
    walRoom = walRoom(target, facts, rules, serverSettings);
  }

  /** Measures one idle connection's memory on a local server; else keeps the rules' fallback. */
  void measureConnectionCost(Target target) {
    perConnectionBytes = ConnectionCost.of(target, perConnectionBytes);
  }

  ServerFacts facts() {
    return facts;
  }

  SessionInputs inputs() {
    return inputs;
  }

  /**
   * The PGTune-style configuration of this session's server ({@link PgTuneSettings#compute}),
   * computed on first use and kept, so that the proposer, validation and the results use the same
   * settings and the server is asked once. A failure is not kept: the next use asks again.
   *
   * @throws PgknobException when the server's facts cannot be read
   */
  synchronized Map<String, String> pgTune() {
    if (pgTune == null) {
      pgTune = PgTuneSettings.compute(this);
    }
    return pgTune;
  }

  BoundSpace bound() {
    return bound;
  }

  /** The search space after the safety rules removed what needs an opt-in. */
  SearchSpace space() {
    return space;
  }

  /** The space of one track: every knob, or those a reload applies. */
  SearchSpace trackSpace(Track track) {
    if (track == Track.RESTART) {
      return space;
    }
    return space.subset(k -> !bound.needsRestart(k.name()));
  }

  SafetyRules rules() {
    return rules;
  }

  SafetyContext safety(SearchSpace of) {
    return new SafetyContext(
        of,
        serverSettings,
        ram,
        perConnectionBytes,
        inputs.workload().users(),
        inputs.allowDurabilityTradeoff(),
        false,
        walRoom);
  }

  Map<String, PgSetting> serverSettings() {
    return serverSettings;
  }

  Workload workload() {
    return workload;
  }

  /** The database the workload runs in: the guardrail and timeouts stop its backends. */
  String workloadDatabase() {
    return workloadDatabase;
  }

  long memoryLimitBytes() {
    return rules.limitBytes(ram);
  }

  /** The room on the WAL's disk at the start, or unknown for a disk this host cannot see. */
  WalRoom walRoom() {
    return walRoom;
  }

  RamLimit ram() {
    return ram;
  }

  /** About the bytes the workload's reset copies. */
  long databaseBytes() {
    return inputs.workload().databaseBytes();
  }

  Summary.Machine machine() {
    int cores = facts.hostCores().orElse(0);
    return new Summary.Machine(
        cores,
        ram.bytes(),
        StorageProbe.describe(facts.local() ? facts.dataDirectory() : null),
        System.getProperty("os.name") + " " + System.getProperty("os.version"));
  }

  Map<String, SettingFact> settingFacts() {
    try (Connection conn = target.connect("postgres")) {
      List<String> names = new ArrayList<>(space.names());
      names.addAll(PgTuneSettings.NAMES);
      return SettingFact.read(conn, names);
    } catch (SQLException e) {
      return new LinkedHashMap<>();
    }
  }

  Target target() {
    return target;
  }
}
